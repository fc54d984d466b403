#pragma once
// What a batch scheduler's accounting says a run used and was given (sched::JobUsage), as the run's
// ordinary metrics and provenance (docs/telemetry.md, "Slurm accounting"), and the attempt's requested
// resources as provenance (what the efficiency view compares against: report/efficiency.h). Pure, but
// for add_warnings.
#include <string>
#include <string_view>
#include <vector>

#include "sched/resources.h"
#include "sched/usage.h"
#include "store/records.h"
#include "store/requested_resources.h"

namespace sweep::runner {

/// Metrics `<scheduler>_cpu_time_s` (s), `_max_rss_mib` (MiB), `_energy_j` (J, only when given) and
/// provenance `<scheduler>.req_mem`, `.timelimit`, `.alloc_cpus`, `.alloc_gpus`: each only when the
/// accounting gave it; nothing is invented. A metric name the workload reported itself keeps the
/// workload's value, with a warning in `warnings` (as ingest does for telemetry's names).
void add_usage(std::string_view scheduler, const sched::JobUsage& usage, store::AttemptResult& result,
               std::vector<std::string>& warnings);

/// Appends `warnings` (each prefixed with `run_dir`) to the run's ingest_warnings file, which ingest wrote
/// or not, and counts them in the provenance key `ingest_warnings` (runner/ingest.h). Best effort: a file
/// that cannot be written leaves the count. Nothing when `warnings` is empty.
void add_warnings(const std::string& run_dir, const std::vector<std::string>& warnings, store::AttemptResult& result);

/// Provenance `resources.<key>` = value of each of `resources` among store::kRequestedResources.
store::KeyValues requested_provenance(const std::vector<sched::Resource>& resources);

}  // namespace sweep::runner
