// device.h over the CUDA runtime (the build has the CUDA toolkit).
#include <cuda_runtime.h>

#include <stdexcept>

#include "comm/device.h"

namespace sweep::comm {
namespace {

void check(cudaError_t code, const std::string& what) {
  if (code != cudaSuccess) throw std::runtime_error(what + " failed: " + cudaGetErrorString(code));
}

cudaEvent_t event(void* e) { return static_cast<cudaEvent_t>(e); }

}  // namespace

bool cuda_compiled_in() { return true; }

std::string cuda_device_name(int device) {
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, device), "cudaGetDeviceProperties(" + std::to_string(device) + ")");
  return properties.name;
}

CudaEventTimer::CudaEventTimer(int device) {
  check(cudaSetDevice(device), "cudaSetDevice");
  cudaEvent_t a = nullptr, b = nullptr;
  check(cudaEventCreate(&a), "cudaEventCreate");
  start_ = a;
  check(cudaEventCreate(&b), "cudaEventCreate");
  stop_ = b;
}

CudaEventTimer::~CudaEventTimer() {
  if (start_) cudaEventDestroy(event(start_));
  if (stop_) cudaEventDestroy(event(stop_));
}

// The null stream is the legacy default stream, libtorch's default CUDA stream.
void CudaEventTimer::start() { check(cudaEventRecord(event(start_), nullptr), "cudaEventRecord"); }

double CudaEventTimer::stop() {
  check(cudaEventRecord(event(stop_), nullptr), "cudaEventRecord");
  check(cudaEventSynchronize(event(stop_)), "cudaEventSynchronize");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, event(start_), event(stop_)), "cudaEventElapsedTime");
  return static_cast<double>(ms) / 1000.0;
}

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
