#pragma once
// Which metrics are sweep's own measurements of a run (its telemetry, docs/telemetry.md#metrics, and what
// the scheduler's accounting says it used, docs/telemetry.md#slurm-accounting), as opposed to the
// workload's results. Pure.
//
// Contract: they are ordinary metrics wherever they are named (a declared table or figure, `compare
// --metrics`, a nightly's or history's metric list, references, `repetitions.until`), but the default
// sets leave them out: `compare` and `nightly` without a metric list, the history's trends, the default
// tables and figures. So turning telemetry on (the default) never changes a gate's verdict, its
// multiple-comparison family, or which of the workload's metrics a default figure shows. A workload that
// reports a metric of one of these names keeps its own value (ingest stores the workload's), and that
// metric is left out of the default sets all the same.
#include <string_view>

namespace sweep::telemetry {

/// Every name summarize, per_joule and the scheduler's usage figures (runner/job_usage.h) give.
inline constexpr std::string_view kRunMetrics[] = {
    "telemetry_span_s", "gpu_energy_j",  "avg_gpu_power_w", "gpu_util_mean",       "gpu_mem_util_mean",
    "peak_gpu_mem_mib", "max_gpu_temp_c", "throttled_s",    "cpu_energy_j",        "dram_energy_j",
    "energy_j",         "cpu_time_s",    "cpu_cores_used_mean", "peak_rss_mib",    "samples_per_joule",
    "tokens_per_joule", "slurm_cpu_time_s", "slurm_max_rss_mib", "slurm_energy_j"};

/// Whether `name` is one of kRunMetrics.
bool is_run_metric(std::string_view name);

}  // namespace sweep::telemetry
