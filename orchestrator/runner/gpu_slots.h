#pragma once
// The GPUs of a local campaign and which run holds which (resources.gpus on the local executor,
// docs/experiment-format.md#gpus-on-the-local-executor). Pure: the driver reads the environment and
// runs `nvidia-smi -L`, then hands each run the GPUs it took as its CUDA_VISIBLE_DEVICES.
//
// Contract: a GPU is held by at most one run at a time; take() gives the lowest free GPUs in pool order
// or nothing at all; give_back() returns exactly what take() gave.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sweep::runner {

/// The GPUs runs may be given, as CUDA_VISIBLE_DEVICES names them. The CUDA_VISIBLE_DEVICES sweep was
/// started with, when set, wins: its comma-separated entries in order (indices, UUIDs or MIG names,
/// spaces trimmed, empty and repeated entries dropped; set but empty means no GPU). Otherwise the indices 0..n-1 of
/// the "GPU <n>: ..." lines of `nvidia-smi -L` (MIG devices under a GPU are not counted again).
std::vector<std::string> visible_gpus(std::optional<std::string_view> cuda_visible_devices,
                                      std::string_view nvidia_smi_list);

/// Where visible_gpus found them, for messages: "CUDA_VISIBLE_DEVICES=0,1" or "nvidia-smi -L lists 2 GPUs".
std::string gpu_source(std::optional<std::string_view> cuda_visible_devices, std::size_t listed);

class GpuSlots {
 public:
  explicit GpuSlots(std::vector<std::string> gpus);
  std::size_t size() const { return gpus_.size(); }
  std::size_t free() const;
  /// `n` free GPUs, the first ones in pool order, now held; nullopt (nothing held) when fewer are free.
  /// take(0) gives an empty set.
  std::optional<std::vector<std::string>> take(std::size_t n);
  /// Frees GPUs that take() gave. Error(internal) for one that is not in the pool or not held.
  void give_back(const std::vector<std::string>& gpus);

 private:
  std::vector<std::string> gpus_;
  std::vector<bool> held_;
};

/// The value of CUDA_VISIBLE_DEVICES for a run given `gpus`: "0,1".
std::string cuda_visible_devices(const std::vector<std::string>& gpus);

}  // namespace sweep::runner
