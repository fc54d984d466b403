#include "runner/job_usage.h"

#include <algorithm>
#include <fmt/core.h>

#include <cstdlib>
#include <string>

#include "util/error.h"
#include "util/safe_files.h"

namespace sweep::runner {
namespace {

/// Ingest's warnings file in the run directory and its provenance key (runner/ingest.h).
constexpr const char* kIngestWarnings = "ingest_warnings";
constexpr std::uintmax_t kMaxWarningsBytes = 1u << 20;

}  // namespace

void add_usage(std::string_view scheduler, const sched::JobUsage& usage, store::AttemptResult& result,
               std::vector<std::string>& warnings) {
  const auto metric = [&](std::string_view name, const std::optional<double>& v, std::string_view unit) {
    if (!v) return;
    std::string full = fmt::format("{}_{}", scheduler, name);
    // The workload's own metric of this name keeps its value (the store keeps one value per name).
    if (std::any_of(result.metrics.begin(), result.metrics.end(), [&](const auto& m) { return m.name == full; })) {
      warnings.push_back(fmt::format("the workload reported its own {}, so the scheduler's ({}) was not stored", full, *v));
      return;
    }
    result.metrics.push_back({std::move(full), 0, *v, std::string(unit), "lower"});
  };
  metric("cpu_time_s", usage.cpu_time_s, "s");
  metric("max_rss_mib", usage.max_rss_mib, "MiB");
  metric("energy_j", usage.energy_j, "J");
  const auto note = [&](std::string_view key, const std::string& v) {
    if (!v.empty()) result.provenance.emplace_back(fmt::format("{}.{}", scheduler, key), v);
  };
  note("req_mem", usage.req_mem);
  note("timelimit", usage.timelimit);
  note("alloc_cpus", usage.alloc_cpus ? std::to_string(*usage.alloc_cpus) : "");
  note("alloc_gpus", usage.alloc_gpus ? std::to_string(*usage.alloc_gpus) : "");
}

void add_warnings(const std::string& run_dir, const std::vector<std::string>& warnings, store::AttemptResult& result) {
  if (warnings.empty()) return;
  const std::string path = run_dir + "/" + kIngestWarnings;
  std::string text;
  try {
    text = read_own_file(path, kMaxWarningsBytes);  // ingest's own, when it wrote any
  } catch (const Error&) {
  }
  for (const auto& w : warnings) text += fmt::format("{}: {}\n", run_dir, w);
  try {
    replace_own_file(path, text, 0644);
  } catch (const Error&) {
  }
  unsigned long before = 0;
  const auto it = std::find_if(result.provenance.begin(), result.provenance.end(),
                               [](const auto& kv) { return kv.first == kIngestWarnings; });
  if (it != result.provenance.end()) {
    before = std::strtoul(it->second.c_str(), nullptr, 10);
    result.provenance.erase(it);
  }
  result.provenance.emplace_back(kIngestWarnings, std::to_string(before + warnings.size()));
}

store::KeyValues requested_provenance(const std::vector<sched::Resource>& resources) {
  store::KeyValues out;
  for (const auto& r : resources)
    if (std::find(std::begin(store::kRequestedResources), std::end(store::kRequestedResources), r.key) !=
        std::end(store::kRequestedResources))
      out.emplace_back("resources." + r.key, r.value);
  return out;
}

}  // namespace sweep::runner
