// device.h in a build without the CUDA toolkit: no device is ever usable.
#include <stdexcept>

#include "comm/device.h"

namespace sweep::comm {

bool cuda_compiled_in() { return false; }

CudaDevices cuda_devices() { return {0, "this build has no CUDA (the CUDA toolkit was not found when it was configured)"}; }

int use_cuda_device(int, const std::string& who) {
  throw std::runtime_error(who + " needs a CUDA GPU, but " + cuda_devices().problem);
}

std::string cuda_device_name(int) { throw std::runtime_error("no CUDA device name: " + cuda_devices().problem); }

CudaEventTimer::CudaEventTimer(int) { throw std::runtime_error("no CUDA event timer: " + cuda_devices().problem); }
CudaEventTimer::~CudaEventTimer() = default;
void CudaEventTimer::start() {}
double CudaEventTimer::stop() { return 0; }

}  // namespace sweep::comm
