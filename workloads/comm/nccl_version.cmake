# What the nccl backend needs of the NCCL it is compiled against, read from nccl.h at configure time.
# Included by workloads/comm/CMakeLists.txt; tests/unit/comm/nccl_version_test.cmake runs it under
# `cmake -P` on stand-in headers.

# The oldest NCCL the backend compiles against: ncclCommSplit (split()) arrived in 2.18.1, after ncclAvg
# and ncclBfloat16 (2.10.3).
set(SWEEP_NCCL_MIN_VERSION 2.18.1)

# sweep_nccl_verdict(<header> <version_var> <problem_var>)
# Reads NCCL_MAJOR, NCCL_MINOR and NCCL_PATCH from <header> (a nccl.h). Sets <version_var> to
# "MAJOR.MINOR.PATCH" ("" when the header lacks them or cannot be read) and <problem_var> to "" when the
# backend can be built against it, else to one sentence that names the header, the version found and
# the version needed.
function(sweep_nccl_verdict header version_var problem_var)
  set(version "")
  if(EXISTS "${header}")
    file(STRINGS "${header}" lines REGEX "^#define NCCL_(MAJOR|MINOR|PATCH)[ \t]+[0-9]+")
    foreach(part MAJOR MINOR PATCH)
      set(NCCL_${part} "")
      foreach(line IN LISTS lines)
        if(line MATCHES "^#define NCCL_${part}[ \t]+([0-9]+)")
          set(NCCL_${part} "${CMAKE_MATCH_1}")
        endif()
      endforeach()
    endforeach()
    if(NOT NCCL_MAJOR STREQUAL "" AND NOT NCCL_MINOR STREQUAL "" AND NOT NCCL_PATCH STREQUAL "")
      set(version "${NCCL_MAJOR}.${NCCL_MINOR}.${NCCL_PATCH}")
    endif()
  endif()
  set(needed "the nccl backend needs NCCL ${SWEEP_NCCL_MIN_VERSION} or newer (ncclCommSplit)")
  if(NOT EXISTS "${header}")
    set(problem "${header} does not exist; ${needed}")
  elseif(version STREQUAL "")
    set(problem "${header} defines no NCCL_MAJOR, NCCL_MINOR and NCCL_PATCH; ${needed}")
  elseif(version VERSION_LESS SWEEP_NCCL_MIN_VERSION)
    set(problem "${header} is NCCL ${version}; ${needed}")
  else()
    set(problem "")
  endif()
  set(${version_var} "${version}" PARENT_SCOPE)
  set(${problem_var} "${problem}" PARENT_SCOPE)
endfunction()
