// cuda_memory.h for a libtorch without CUDA: no GPU memory to count.
#include "trainbench/cuda_memory.h"

namespace sweep::trainbench {

std::optional<CudaMemoryPeak> cuda_memory_peak(int) { return std::nullopt; }

}  // namespace sweep::trainbench
