#pragma once
// One node's sampler: the sources the options ask for, each set up once (an unavailable one recorded
// with its reason and left out), and the records of the header and of one sample (docs/telemetry.md,
// "The sampler"). What reaches the file, and when, is log_file.h's and the program's.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "telemetry/log.h"
#include "telemetry/nvml_source.h"
#include "telemetry/proc_sampler.h"
#include "telemetry/rapl_zones.h"
#include "telemetry/sampler_options.h"

namespace sweep::telemetry {

struct SamplerEnvironment {
  std::string node;                        // $SLURMD_NODENAME, else the host name
  std::optional<std::string> visible_gpus; // $CUDA_VISIBLE_DEVICES
  std::string nvml_library;                // $SWEEP_NVML_LIBRARY, else libnvidia-ml.so.1
  std::string proc_root = "/proc";
};

/// The environment of this process, as the sampler reads it.
SamplerEnvironment current_environment();

class Sampler {
 public:
  Sampler(const SamplerOptions& options, const SamplerEnvironment& environment);

  /// The header records, epoch_s being `epoch_s`.
  std::string header(double epoch_s) const;
  /// The records of one sample at `t` seconds since the first.
  std::string sample(double t);

 private:
  std::string node_;
  int interval_ms_;
  std::vector<SourceStatus> sources_;
  std::unique_ptr<ProcSampler> proc_;
  std::unique_ptr<RaplSource> rapl_;
  std::unique_ptr<NvmlSource> nvml_;
};

}  // namespace sweep::telemetry
