#pragma once
// Everything a report needs about one campaign, read from the database in one go.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "report/metric_samples.h"
#include "stats/summary.h"
#include "store/records.h"

namespace sweep::store {
class Store;
}

namespace sweep::report {

/// The metrics the efficiency view (report/efficiency.h) reads per run, of every run: what a run used.
inline constexpr std::string_view kUsageMetrics[] = {"cpu_time_s", "peak_rss_mib", "gpu_util_mean", "slurm_cpu_time_s",
                                                     "slurm_max_rss_mib"};
/// One metric value of one run (its latest attempt).
struct RunMetric {
  std::int64_t run_id = 0;
  std::string name;
  double value = 0;
};

struct CampaignData {
  store::CampaignRecord campaign;
  std::vector<store::PointRecord> points;
  std::vector<store::RunRecord> runs;
  MetricSamples metrics;  // succeeded runs' values by point and metric
  // The latest attempts' provenance of hardware_keys() (report/hardware.h) and store::kGpusRequestedKey:
  // the CPU over every run, the GPU and NCCL keys over the runs that asked for GPUs.
  std::vector<store::ProvenanceCount> hardware;
  // What a batch scheduler last said of the running runs' attempts ("<executor>.phase", ".state",
  // ".reason": runner/batch_driver.h), by run id; none for the local executor.
  std::vector<store::AttemptValue> scheduler_states;
  // What the runs asked for (runner/job_usage.h: "resources.<key>", "<executor>.req_mem", ".timelimit",
  // ".alloc_cpus", ".alloc_gpus") and what they used (kUsageMetrics), of the runs that ended.
  std::vector<store::AttemptValue> requests;
  std::vector<RunMetric> usage;
  // The ended runs' values of the provenance facts compared between campaigns (report/provenance_changes.h),
  // and the campaign-level facts as values of run id 0 (campaign_fact_values).
  std::vector<store::AttemptValue> facts;
  // What `sweep run` forecast for each point before it started (campaign_forecasts; docs/forecasts.md).
  std::vector<store::ForecastRecord> forecast;
};

/// Reads the campaign labelled `label` from one snapshot of the database (a campaign may be writing);
/// Error(not_found) listing the known labels otherwise.
CampaignData load_campaign(const store::Store& db, const std::string& label);

/// The values of provenance `keys` in the latest attempts of `campaign`'s ended runs, and of its
/// campaign-level pseudo-keys among them (report/provenance_changes.h: "campaign.system", run id 0): what
/// a hardware key (report/hardware_change.h) is judged on. One read; the caller picks the snapshot.
std::vector<store::AttemptValue> provenance_values(const store::Store& db, const store::CampaignRecord& campaign,
                                                   const std::vector<std::string>& keys);

/// The runs that have begun an attempt (whose provenance may hold hardware facts).
std::size_t started_runs(const CampaignData& data);

/// One metric of one point across its succeeded runs. Each run contributes the mean of its values
/// of that metric: its one value, or for a metric reported at several indices (one row per message
/// size) the mean over its indices. A rule's repeated matches are reduced at ingest by its `reduce`,
/// and a run where a rule without one matched more than once has failed (docs/metrics-format.md#reduce).
struct MetricStats {
  std::string unit;
  std::string better;
  stats::Summary summary;
  std::vector<double> values;  // the per-run values summarised, in run order
  /// For a metric reported at several indices in a run (e.g. one row per message size): the summary
  /// of each index over the runs, by ascending index. Empty when every value has index 0.
  std::vector<std::pair<std::int64_t, stats::Summary>> by_index;
  /// A value by definition, not by measurement (a derived metric of its baseline point against itself:
  /// exactly 1): shown without a spread.
  bool exact = false;
};

struct PointResult {
  const store::PointRecord* point = nullptr;
  std::map<std::string, MetricStats> metrics;  // by metric name
  std::size_t succeeded = 0;
  std::size_t failed = 0;
  std::size_t unfinished = 0;  // pending or running
};

/// Aggregates the campaign per point, in point order. Only succeeded runs contribute metrics.
std::vector<PointResult> point_results(const CampaignData& data);

/// Every metric name in the campaign, sorted.
std::vector<std::string> metric_names(const CampaignData& data);
/// Every metric name some point of `results` has, sorted.
std::vector<std::string> metric_names(const std::vector<PointResult>& results);

}  // namespace sweep::report
