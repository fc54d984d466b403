#include "trainbench/gpu_peaks.h"

#include <array>

namespace sweep::trainbench {
namespace {

struct Row {
  std::string_view name;  // matched as a part of the device's name; the first row that matches wins
  double bf16, fp32;
  std::string_view datasheet;
};

// Dense (not sparse) figures of the SXM or standard part, from NVIDIA's datasheets. A name that
// contains another comes first (H100 PCIe before H100, A100 before A10, L40S before L40 before L4).
constexpr std::array<Row, 12> kPeaks{{
    {"H100 PCIe", 756, 51.2, "NVIDIA H100 Tensor Core GPU datasheet (PCIe)"},
    {"H100 NVL", 835, 60, "NVIDIA H100 Tensor Core GPU datasheet (NVL)"},
    {"GH200", 989, 67, "NVIDIA GH200 Grace Hopper Superchip datasheet"},
    {"H200", 989, 67, "NVIDIA H200 Tensor Core GPU datasheet (SXM)"},
    {"H100", 989, 67, "NVIDIA H100 Tensor Core GPU datasheet (SXM)"},
    {"H800", 989, 67, "NVIDIA H800 datasheet (SXM)"},
    {"A100", 312, 19.5, "NVIDIA A100 Tensor Core GPU datasheet"},
    {"A800", 312, 19.5, "NVIDIA A800 datasheet"},
    {"A40", 149.7, 37.4, "NVIDIA A40 datasheet"},
    {"L40S", 362.05, 91.6, "NVIDIA L40S datasheet"},
    {"L40", 181.05, 90.5, "NVIDIA L40 datasheet"},
    {"A10", 125, 31.2, "NVIDIA A10 datasheet"},
}};

}  // namespace

std::optional<GpuPeak> gpu_peak(std::string_view device_name) {
  for (const Row& r : kPeaks)
    if (device_name.find(r.name) != std::string_view::npos)
      return GpuPeak{r.bf16, r.fp32, std::string(r.name) + ", " + std::string(r.datasheet)};
  return std::nullopt;
}

}  // namespace sweep::trainbench
