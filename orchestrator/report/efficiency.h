#pragma once
// Efficiency per point (docs/telemetry.md, "Efficiency"): what a point's runs used against what they
// asked for (time, memory, CPU cores, GPUs), and the `time:`, `mem:` and `escalate:` values suggested
// for the next campaign. `sweep show --efficiency` and the reports' "Efficiency" section. Pure: from
// the campaign as read (report/campaign_data.h), never an invented number: a figure no run measured is
// "not measured", a resource no run recorded asking for is "not requested".
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "report/campaign_data.h"

namespace sweep::report {

/// The margin added to the p95 of what was used, for the suggestions.
inline constexpr double kSuggestionMargin = 0.25;

/// What the succeeded runs of a point used of one resource.
struct Used {
  std::optional<double> mean, max, p95;
  std::size_t runs = 0;  // runs that measured it
  std::string from;      // the metric it came from ("peak_rss_mib", "slurm_max_rss_mib", "elapsed_s", ...)
};

/// What the point asked for of one resource: nullopt = not requested (or not recorded).
struct Requested {
  std::optional<double> value;  // seconds, MiB, cores or GPUs
  std::string text;             // as recorded ("00:10:00", "2G")
  std::string from;             // the provenance key ("resources.time", "slurm.timelimit")
};

struct PointEfficiency {
  std::string point_id;
  std::string label;  // the point's parameters
  std::size_t succeeded = 0, timed_out = 0, out_of_memory = 0;
  Used time_s, mem_mib, cores, gpu_util;  // gpu_util: percent
  Requested time, mem, cpus, gpus;
  // Suggestions for the next campaign, in sbatch notation; "" when nothing was measured.
  std::string suggest_time, suggest_mem;
  std::string basis;                  // "p95 of 5 runs" or "the one run" (the percentile is that run)
  std::vector<std::string> escalate;  // YAML lines for `retries:` and `escalate:`; empty when no run needed it
};

/// The campaign's points, in point order.
std::vector<PointEfficiency> efficiency(const CampaignData& data);

/// The p-th percentile (0..100) of `values` with linear interpolation between order statistics (the
/// one value when there is one); nullopt when empty.
std::optional<double> percentile(std::vector<double> values, double p);

/// `seconds` plus the margin, rounded up to a whole minute, in sbatch notation ("00:13:00").
std::string suggested_time(double seconds);
/// `mib` plus the margin, rounded up to a whole GiB from 1 GiB on (else to 64 MiB), in sbatch notation.
std::string suggested_mem(double mib);

}  // namespace sweep::report
