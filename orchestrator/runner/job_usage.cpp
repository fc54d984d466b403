#include "runner/job_usage.h"

#include <algorithm>
#include <fmt/core.h>
#include <string>

namespace sweep::runner {

void add_usage(std::string_view scheduler, const sched::JobUsage& usage, store::AttemptResult& result) {
  const auto metric = [&](std::string_view name, const std::optional<double>& v, std::string_view unit) {
    if (v) result.metrics.push_back({fmt::format("{}_{}", scheduler, name), 0, *v, std::string(unit), "lower"});
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

store::KeyValues requested_provenance(const std::vector<sched::Resource>& resources) {
  store::KeyValues out;
  for (const auto& r : resources)
    if (std::find(std::begin(store::kRequestedResources), std::end(store::kRequestedResources), r.key) !=
        std::end(store::kRequestedResources))
      out.emplace_back("resources." + r.key, r.value);
  return out;
}

}  // namespace sweep::runner
