# Tests of workloads/comm/nccl_version.cmake, run as `cmake -DMODULE=<nccl_version.cmake> -DCASE=<case>
# [-DHEADER=<nccl.h>] -DWORK_DIR=<dir> -P nccl_version_test.cmake`. A failed expectation is a
# FATAL_ERROR that names the header, what was expected and what came back.
#   CASE=stand-ins: headers written here stand in for NCCL releases that cannot be installed on this
#                   machine (2.17.1 and 2.18.0 lack ncclCommSplit; 2.18.1 and 3.0.0 have it), plus a
#                   header without version macros and a missing header.
#   CASE=installed: HEADER is the real nccl.h that configure found (2.28.9 on the build machines); its
#                   version and verdict must agree with its NCCL_VERSION_CODE.
include(${MODULE})

function(expect header want_version want_usable)
  sweep_nccl_verdict(${header} version problem)
  if(NOT version STREQUAL want_version)
    message(FATAL_ERROR "${header}: version \"${version}\", expected \"${want_version}\"")
  endif()
  if(want_usable AND NOT problem STREQUAL "")
    message(FATAL_ERROR "${header}: refused (${problem}), expected usable")
  endif()
  if(NOT want_usable)
    if(problem STREQUAL "")
      message(FATAL_ERROR "${header}: accepted, expected refused")
    endif()
    foreach(needed "${SWEEP_NCCL_MIN_VERSION} or newer" "${header}")
      string(FIND "${problem}" "${needed}" at)
      if(at EQUAL -1)
        message(FATAL_ERROR "${header}: the reason \"${problem}\" does not name \"${needed}\"")
      endif()
    endforeach()
  endif()
  message(STATUS "${header}: \"${version}\" ${problem}")
endfunction()

# A stand-in nccl.h: only the version lines of the real header's layout, not NVIDIA's header.
function(stand_in name major minor patch)
  file(WRITE ${WORK_DIR}/${name}/nccl.h
       "#ifndef NCCL_H_\n#define NCCL_H_\n#define NCCL_MAJOR ${major}\n#define NCCL_MINOR ${minor}\n"
       "#define NCCL_PATCH ${patch}\n#define NCCL_SUFFIX \"\"\n#define NCCL_VERSION_CODE 0\n#endif\n")
endfunction()

if(CASE STREQUAL "stand-ins")
  file(REMOVE_RECURSE ${WORK_DIR})
  stand_in(old 2 17 1)
  stand_in(boundary-below 2 18 0)
  stand_in(boundary 2 18 1)
  stand_in(major 3 0 0)
  file(WRITE ${WORK_DIR}/bare/nccl.h "#define NCCL_MAJOR 2\n/* NCCL_MINOR and NCCL_PATCH missing */\n")
  expect(${WORK_DIR}/old/nccl.h "2.17.1" FALSE)
  expect(${WORK_DIR}/boundary-below/nccl.h "2.18.0" FALSE)
  expect(${WORK_DIR}/boundary/nccl.h "2.18.1" TRUE)
  expect(${WORK_DIR}/major/nccl.h "3.0.0" TRUE)
  expect(${WORK_DIR}/bare/nccl.h "" FALSE)
  expect(${WORK_DIR}/missing/nccl.h "" FALSE)
elseif(CASE STREQUAL "installed")
  file(STRINGS ${HEADER} code REGEX "^#define NCCL_VERSION_CODE")
  string(REGEX REPLACE ".*NCCL_VERSION_CODE[ \t]+([0-9]+).*" "\\1" code "${code}")
  # An independent reading to compare: NCCL_VERSION_CODE is MAJOR·10000 + MINOR·100 + PATCH from 2.9 on
  # (MAJOR·1000 + MINOR·100 + PATCH before), and ncclCommSplit is there from 21801 on.
  if(code LESS 20900)
    math(EXPR major "${code} / 1000")
    math(EXPR minor "(${code} % 1000) / 100")
  else()
    math(EXPR major "${code} / 10000")
    math(EXPR minor "(${code} % 10000) / 100")
  endif()
  math(EXPR patch "${code} % 100")
  if(code LESS 21801)
    expect(${HEADER} "${major}.${minor}.${patch}" FALSE)
  else()
    expect(${HEADER} "${major}.${minor}.${patch}" TRUE)
  endif()
else()
  message(FATAL_ERROR "CASE must be stand-ins or installed, got \"${CASE}\"")
endif()
