#pragma once
// The peak dense arithmetic rates of GPUs, by the name the CUDA runtime gives a device, for MFU. Pure.
#include <optional>
#include <string>
#include <string_view>

namespace sweep::trainbench {

struct GpuPeak {
  double bf16_tflops = 0;  // dense bf16 on the matrix units, fp32 accumulate
  double fp32_tflops = 0;  // plain fp32 (no TF32), as libtorch multiplies fp32 matrices by default
  std::string source;      // the model it matched and the datasheet the figures come from
};

/// The peak of the GPU named `device_name` (e.g. "NVIDIA H100 80GB HBM3"); nullopt for a GPU the
/// table does not know, whose MFU is then unknown unless --peak-tflops gives the peak.
std::optional<GpuPeak> gpu_peak(std::string_view device_name);

}  // namespace sweep::trainbench
