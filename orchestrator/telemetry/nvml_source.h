#pragma once
// The shell of the `nvml` source: libnvidia-ml.so.1 (or $SWEEP_NVML_LIBRARY) loaded by dlopen at run
// time, its entry points resolved into nvml::Api, and the run's GPUs sampled (docs/telemetry.md, "The
// sampler"). Nothing of NVML is linked at build time. The tests load a stand-in library
// (tests/support/nvml_standin.cpp) through this same code.
#include <string>
#include <vector>

#include "telemetry/log.h"
#include "telemetry/nvml_api.h"

namespace sweep::telemetry {

class NvmlSource {
 public:
  /// Loads `library`, resolves the entry points, initialises NVML and finds the GPUs named by
  /// `visible` (CUDA_VISIBLE_DEVICES, or nullopt: all). Throws Error(io) naming the library with
  /// dlerror's text or the NVML error: the source is unavailable.
  NvmlSource(const std::string& library, const std::optional<std::string>& visible);
  ~NvmlSource();
  NvmlSource(const NvmlSource&) = delete;
  NvmlSource& operator=(const NvmlSource&) = delete;

  const std::vector<GpuDevice>& gpus() const { return gpus_; }
  /// What was loaded, for the `source nvml ok` line.
  const std::string& detail() const { return detail_; }

  /// One sample of every GPU at `t`; a call that fails leaves its field empty (`-` in the file).
  /// energy_j: NVML's total-energy counter now minus at the first sample, in J.
  std::vector<GpuSample> sample(double t);

 private:
  /// The GPUs named by `visible` among those NVML lists and this process can open (handle and UUID
  /// read). Error(io) when NVML cannot count them.
  void find_gpus(const std::string& library, const std::optional<std::string>& visible);

  void* handle_ = nullptr;
  nvml::Api api_{};
  std::string detail_;
  std::vector<GpuDevice> gpus_;
  std::vector<nvml::Device> devices_;
  std::vector<std::optional<unsigned long long>> first_energy_mj_;
};

}  // namespace sweep::telemetry
