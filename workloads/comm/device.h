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

}  // namespace sweep::comm
