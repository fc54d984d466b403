#pragma once
// The peak GPU memory of this process as libtorch's CUDA caching allocator counts it. Two files
// implement it, picked at build time: cuda_memory_torch.cpp (a CUDA libtorch) and cuda_memory_none.cpp.
#include <optional>

namespace sweep::trainbench {

struct CudaMemoryPeak {
  double allocated_mib = 0;  // the most held by tensors at once
  double reserved_mib = 0;   // the most the allocator held from the driver at once
};

/// The peaks on `device` since the process started; nullopt for a libtorch without CUDA.
std::optional<CudaMemoryPeak> cuda_memory_peak(int device);

}  // namespace sweep::trainbench
