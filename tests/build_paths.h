#pragma once
// The paths of this build that the test programs use: the source tree, the built programs, the
// build's own folders. Each test program gets them from one generated file of its own
// (<program>_paths.cpp, made by sweep_test_paths in tests/CMakeLists.txt, which also includes this
// header in every file of the program), so that no other object of the program carries a path of this
// clone, and the compile cache shares them between two clones of one commit (docs/ci.md, "The compile
// cache").
#include <string>

namespace sweep_test {

/// "NAME=VALUE" entries, ended by nullptr: defined by the program's generated <program>_paths.cpp.
extern const char* const kBuildPaths[];

/// The path named `name`. A name the program's sweep_test_paths call did not give is a broken build:
/// std::logic_error naming it and the CMake function to add it to.
const std::string& build_path(const char* name);

}  // namespace sweep_test

// The names the test files use, each a const std::string&.
#define SWEEP_SOURCE_DIR (::sweep_test::build_path("SWEEP_SOURCE_DIR"))
#define SWEEP_BUILD_DIR (::sweep_test::build_path("SWEEP_BUILD_DIR"))
#define SWEEP_ARTIFACTS_DIR (::sweep_test::build_path("SWEEP_ARTIFACTS_DIR"))
#define CHARLIECLOUD_IMAGES (::sweep_test::build_path("CHARLIECLOUD_IMAGES"))
#define SWEEP_BIN (::sweep_test::build_path("SWEEP_BIN"))
#define COLLBENCH_BIN (::sweep_test::build_path("COLLBENCH_BIN"))
#define TRAINBENCH_BIN (::sweep_test::build_path("TRAINBENCH_BIN"))
#define NCCL_VERSION_BIN (::sweep_test::build_path("NCCL_VERSION_BIN"))
#define MPI_HELLO (::sweep_test::build_path("MPI_HELLO"))
#define SWEEP_IMAGE_ID_BIN (::sweep_test::build_path("SWEEP_IMAGE_ID_BIN"))
#define SWEEP_TELEMETRY_BIN (::sweep_test::build_path("SWEEP_TELEMETRY_BIN"))
#define TELEMETRY_WORKLOAD_BIN (::sweep_test::build_path("TELEMETRY_WORKLOAD_BIN"))
#define NVML_STANDIN_LIB (::sweep_test::build_path("NVML_STANDIN_LIB"))
#define TREE_HASH_REFERENCE (::sweep_test::build_path("TREE_HASH_REFERENCE"))
