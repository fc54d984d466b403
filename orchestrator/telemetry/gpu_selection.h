#pragma once
// Which of NVML's GPUs a run may use: CUDA_VISIBLE_DEVICES read as CUDA reads it. Pure.
#include <optional>
#include <string>
#include <vector>

namespace sweep::telemetry {

/// NVML indexes of the GPUs named by `visible` (CUDA_VISIBLE_DEVICES; nullopt: unset, every GPU), in
/// its order, given each NVML GPU's UUID in index order. An entry is an index ("1") or a UUID or a
/// unique prefix of one ("GPU-8f2c", "8f2c"); as in CUDA, the list ends at the first entry that names
/// no GPU (so "" and "-1" select none), and a GPU named twice is taken once.
std::vector<int> select_gpus(const std::optional<std::string>& visible, const std::vector<std::string>& uuids);

}  // namespace sweep::telemetry
