#include "runner/gpu_slots.h"

#include <fmt/core.h>

#include <algorithm>

#include "util/error.h"
#include "util/strings.h"

namespace sweep::runner {

std::vector<std::string> visible_gpus(std::optional<std::string_view> cuda_visible_devices,
                                      std::string_view nvidia_smi_list) {
  std::vector<std::string> out;
  if (cuda_visible_devices) {
    for (const auto& entry : split(*cuda_visible_devices, ','))
      if (std::string id(trim(entry)); !id.empty() && std::find(out.begin(), out.end(), id) == out.end())
        out.push_back(std::move(id));
    return out;
  }
  for (const auto& line : split(nvidia_smi_list, '\n'))
    if (line.substr(0, 4) == "GPU " && line.find(": ") != std::string_view::npos) out.push_back(std::to_string(out.size()));
  return out;
}

std::string gpu_source(std::optional<std::string_view> cuda_visible_devices, std::size_t listed) {
  if (cuda_visible_devices) return fmt::format("CUDA_VISIBLE_DEVICES=\"{}\"", *cuda_visible_devices);
  return fmt::format("nvidia-smi -L lists {} GPU{}", listed, listed == 1 ? "" : "s");
}

GpuSlots::GpuSlots(std::vector<std::string> gpus) : gpus_(std::move(gpus)), held_(gpus_.size(), false) {}

std::size_t GpuSlots::free() const { return static_cast<std::size_t>(std::count(held_.begin(), held_.end(), false)); }

std::optional<std::vector<std::string>> GpuSlots::take(std::size_t n) {
  if (free() < n) return std::nullopt;
  std::vector<std::string> out;
  for (std::size_t i = 0; i < gpus_.size() && out.size() < n; ++i)
    if (!held_[i]) {
      held_[i] = true;
      out.push_back(gpus_[i]);
    }
  return out;
}

void GpuSlots::give_back(const std::vector<std::string>& gpus) {
  for (const std::string& gpu : gpus) {
    const auto it = std::find(gpus_.begin(), gpus_.end(), gpu);
    const auto i = static_cast<std::size_t>(it - gpus_.begin());
    if (it == gpus_.end() || !held_[i])
      throw Error(ErrorKind::internal, fmt::format("GPU {} given back but not held", gpu));
    held_[i] = false;
  }
}

std::string cuda_visible_devices(const std::vector<std::string>& gpus) { return join(gpus, ","); }

}  // namespace sweep::runner
