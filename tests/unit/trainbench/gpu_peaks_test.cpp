// The GPU peak table: the names the CUDA runtime gives real devices (as nvidia-smi -L and
// torch.cuda.get_device_name print them) find their model's datasheet figures, and a name that contains
// another model's finds its own.
#include <catch2/catch.hpp>

#include "trainbench/gpu_peaks.h"

using namespace sweep::trainbench;

TEST_CASE("A GPU's name finds its model's peak, the longer model name first") {
  const auto h100 = gpu_peak("NVIDIA H100 80GB HBM3");
  REQUIRE(h100);
  CHECK(h100->bf16_tflops == 989);
  CHECK(h100->fp32_tflops == 67);
  CHECK(h100->source.find("H100, NVIDIA H100") == 0);
  CHECK(gpu_peak("NVIDIA H100 PCIe")->bf16_tflops == 756);
  CHECK(gpu_peak("NVIDIA H200")->bf16_tflops == 989);
  CHECK(gpu_peak("NVIDIA A100-SXM4-80GB")->bf16_tflops == 312);
  CHECK(gpu_peak("NVIDIA A10")->bf16_tflops == 125);
  CHECK(gpu_peak("NVIDIA A40")->fp32_tflops == Approx(37.4));
  CHECK(gpu_peak("NVIDIA L40S")->bf16_tflops == Approx(362.05));
  CHECK(gpu_peak("NVIDIA L40")->bf16_tflops == Approx(181.05));
}

TEST_CASE("A GPU the table does not know has no peak") {
  CHECK_FALSE(gpu_peak("Tesla T4"));
  CHECK_FALSE(gpu_peak(""));
}
