// device.h against this machine's CUDA runtime (or a build without one). The build machines have the
// CUDA runtime and no GPU; a GPU machine takes the other branch of each case.
#include <catch2/catch.hpp>

#include "comm/device.h"

using namespace sweep::comm;

TEST_CASE("cuda_devices gives a device count or the reason there is none, never both") {
  const CudaDevices devices = cuda_devices();
  INFO("count " << devices.count << ", problem \"" << devices.problem << "\"");
  CHECK(devices.count >= 0);
  CHECK((devices.count > 0) == devices.problem.empty());
  if (devices.count == 0 && cuda_compiled_in()) CHECK_THAT(devices.problem, Catch::StartsWith("cudaGetDeviceCount says: "));
  if (!cuda_compiled_in()) CHECK_THAT(devices.problem, Catch::StartsWith("this build has no CUDA"));
}

TEST_CASE("use_cuda_device names its caller and what is missing when there is no GPU") {
  const CudaDevices devices = cuda_devices();
  if (devices.count > 0) {  // a GPU machine: one device per local rank, round robin
    CHECK(use_cuda_device(devices.count + 1, "test") == 1 % devices.count);
    return;
  }
  CHECK_THROWS_WITH(use_cuda_device(0, "the nccl backend"), "the nccl backend needs a CUDA GPU, but " + devices.problem);
}
