#pragma once
// What a batch scheduler's accounting says a run used and was given (sched::JobUsage), as the run's
// ordinary metrics and provenance (docs/telemetry.md, "Slurm accounting"), and the attempt's requested
// resources as provenance (what the efficiency view compares against: report/efficiency.h). Pure.
#include <string_view>
#include <vector>

#include "sched/resources.h"
#include "sched/usage.h"
#include "store/records.h"
#include "store/requested_resources.h"

namespace sweep::runner {

/// Metrics `<scheduler>_cpu_time_s` (s), `_max_rss_mib` (MiB), `_energy_j` (J, only when given) and
/// provenance `<scheduler>.req_mem`, `.timelimit`, `.alloc_cpus`, `.alloc_gpus`: each only when the
/// accounting gave it; nothing is invented.
void add_usage(std::string_view scheduler, const sched::JobUsage& usage, store::AttemptResult& result);

/// Provenance `resources.<key>` = value of each of `resources` among store::kRequestedResources.
store::KeyValues requested_provenance(const std::vector<sched::Resource>& resources);

}  // namespace sweep::runner
