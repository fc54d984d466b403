#pragma once
// Which CUDA devices this process may use, asked of the CUDA runtime (CUDA_VISIBLE_DEVICES applies).
// Two files implement it, picked at build time: device_cuda.cpp (the CUDA runtime, when the CUDA
// toolkit is found) and device_none.cpp (a build without CUDA). Callers ask before they wait for peers,
// so that a node without a usable GPU fails at once.
#include <string>

namespace sweep::comm {

struct CudaDevices {
  int count = 0;        // visible devices; 0 when none is usable
  std::string problem;  // why none is usable, e.g. "cudaGetDeviceCount says: no CUDA-capable device is detected"; "" when count > 0
};

/// Asks the CUDA runtime. Never throws: a missing driver, no device and a build without CUDA are all a
/// count of 0 with the reason in `problem`.
CudaDevices cuda_devices();

/// Makes device `local_rank mod count` current in this thread (one GPU per rank of a node) and returns
/// its index. Throws std::runtime_error starting with `who` + " needs a CUDA GPU, but " and the
/// problem when there is none.
int use_cuda_device(int local_rank, const std::string& who);

/// Whether this build has the CUDA runtime (device_cuda.cpp).
bool cuda_compiled_in();

/// The device's name as the CUDA runtime gives it, e.g. "NVIDIA H100 80GB HBM3". Throws
/// std::runtime_error when it cannot be read (no CUDA, no such device).
std::string cuda_device_name(int device);

/// Times the work enqueued on a device's default stream (where libtorch runs its kernels) with CUDA
/// events, as the GPU ran it: start() and stop() record an event each; stop() waits for the second and
/// returns the seconds between them. Made on, and used from threads that made current, `device`.
/// Throws std::runtime_error when CUDA fails or the build has none.
class CudaEventTimer {
 public:
  explicit CudaEventTimer(int device);
  ~CudaEventTimer();
  CudaEventTimer(const CudaEventTimer&) = delete;
  CudaEventTimer& operator=(const CudaEventTimer&) = delete;
  void start();
  double stop();

 private:
  void* start_ = nullptr;  // cudaEvent_t
  void* stop_ = nullptr;
};

}  // namespace sweep::comm
