// device.h over the CUDA runtime (the build has the CUDA toolkit).
#include <cuda_runtime.h>

#include <stdexcept>

#include "comm/device.h"

namespace sweep::comm {

bool cuda_compiled_in() { return true; }

CudaDevices cuda_devices() {
  CudaDevices found;
  const cudaError_t e = cudaGetDeviceCount(&found.count);
  if (e != cudaSuccess) {
    found.count = 0;
    found.problem = std::string("cudaGetDeviceCount says: ") + cudaGetErrorString(e);
    int driver = 0;
    if (cudaDriverGetVersion(&driver) == cudaSuccess && driver == 0) found.problem += " (no CUDA driver is installed)";
  } else if (found.count == 0) {
    found.problem = "cudaGetDeviceCount says: 0 devices";
  }
  return found;
}

int use_cuda_device(int local_rank, const std::string& who) {
  const CudaDevices devices = cuda_devices();
  if (devices.count == 0) throw std::runtime_error(who + " needs a CUDA GPU, but " + devices.problem);
  const int device = local_rank % devices.count;
  if (const cudaError_t e = cudaSetDevice(device); e != cudaSuccess)
    throw std::runtime_error(who + ": cudaSetDevice(" + std::to_string(device) + ") failed: " + cudaGetErrorString(e));
  return device;
}

}  // namespace sweep::comm
