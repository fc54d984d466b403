// cuda_memory.h over a CUDA libtorch's caching allocator (compiled only against one).
#include <c10/cuda/CUDACachingAllocator.h>

#include <cstddef>

#include "trainbench/cuda_memory.h"

namespace sweep::trainbench {

std::optional<CudaMemoryPeak> cuda_memory_peak(int device) {
  const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(static_cast<c10::DeviceIndex>(device));
  constexpr std::size_t aggregate = 0;  // StatType::AGGREGATE: all pools together
  const double mib = 1024.0 * 1024.0;
  return CudaMemoryPeak{static_cast<double>(stats.allocated_bytes[aggregate].peak) / mib,
                        static_cast<double>(stats.reserved_bytes[aggregate].peak) / mib};
}

}  // namespace sweep::trainbench
