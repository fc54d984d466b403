#include "telemetry/sampler.h"

#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <utility>

#include "telemetry/log_writer.h"
#include "util/error.h"

namespace sweep::telemetry {
namespace {

std::optional<std::string> env(const char* name) {
  const char* value = ::secure_getenv(name);  // none in a privileged process (never loaded from there)
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

/// Runs `start`; the source's status line: ok with `detail`, or unavailable with the error's text.
SourceStatus start_source(const std::string& name, const std::function<std::string()>& start) {
  try {
    return {name, "ok", start()};
  } catch (const Error& e) {
    return {name, "unavailable", e.message()};
  }
}

}  // namespace

SamplerEnvironment current_environment() {
  SamplerEnvironment e;
  const auto slurm_node = env("SLURMD_NODENAME");
  if (slurm_node && !slurm_node->empty()) {
    e.node = *slurm_node;
  } else {
    char host[256] = {};
    e.node = ::gethostname(host, sizeof host - 1) == 0 && host[0] != '\0' ? host : "localhost";
  }
  e.visible_gpus = env("CUDA_VISIBLE_DEVICES");
  const auto library = env("SWEEP_NVML_LIBRARY");
  e.nvml_library = library && !library->empty() ? *library : "libnvidia-ml.so.1";
  return e;
}

Sampler::Sampler(const SamplerOptions& options, const SamplerEnvironment& environment)
    : node_(environment.node), interval_ms_(options.interval_ms) {
  // Each source's start, in the file's order: the detail of its `ok` line, or Error: unavailable.
  const std::vector<std::pair<std::string, std::function<std::string()>>> starts{
      {"proc",
       [&] {
         proc_ = std::make_unique<ProcSampler>(environment.proc_root, options.marker, options.root_pid);
         return std::string();
       }},
      {"rapl",
       [&] {
         rapl_ = std::make_unique<RaplSource>(options.sysfs_root);
         return std::string();
       }},
      {"nvml",
       [&] {
         nvml_ = std::make_unique<NvmlSource>(environment.nvml_library, environment.visible_gpus);
         return nvml_->detail();
       }},
  };
  for (const auto& [name, start] : starts) {
    sources_.push_back(options.sources.count(name) ? start_source(name, start) : SourceStatus{name, "off", ""});
  }
}

std::string Sampler::header(double epoch_s) const {
  return header_records(node_, interval_ms_, epoch_s, sources_, nvml_ ? nvml_->gpus() : std::vector<GpuDevice>{},
                        rapl_ ? rapl_->zones() : std::vector<RaplZone>{});
}

std::string Sampler::sample(double t) {
  std::string out;
  if (proc_) {
    const ProcReading r = proc_->sample();
    out += proc_record({t, r.cpu_s, r.rss_mib, r.nprocs, r.peak_mib});
  }
  if (rapl_) {
    const auto joules = rapl_->sample();
    for (std::size_t i = 0; i < joules.size(); ++i) out += rapl_record(t, rapl_->zones()[i].zone, joules[i]);
  }
  if (nvml_) {
    for (const auto& g : nvml_->sample(t)) out += gpu_record(g);
  }
  return out;
}

}  // namespace sweep::telemetry
