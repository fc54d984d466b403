#pragma once
// `sweep logs`: which run's output to show (a point filter, a repetition) and following it as it grows,
// like `tail -f`, until its attempt ends (docs/campaigns.md#watching-a-campaign).
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/campaign_data.h"

namespace sweep::report {

/// `n=3,threads=2`: parameters (or derived values) and the text of their value; every one must hold.
using PointFilter = std::vector<std::pair<std::string, std::string>>;

/// Reads `name=value` entries separated by commas (spaces around them trimmed); "" is no filter.
/// Error(usage) for an entry without '=' or with an empty name.
PointFilter parse_point_filter(std::string_view text);

struct LogChoice {
  const store::RunRecord* run = nullptr;
  const store::PointRecord* point = nullptr;
  std::string path;  // <run_dir>/stdout or <run_dir>/stderr
};

/// The run whose output `sweep logs` shows: among the runs of the points `filter` matches (and of
/// repetition `rep`, when given) that have begun an attempt, the first one running now, else the one
/// that began last (the start times have whole seconds: of equal ones, the last in run order). Error(usage) for a filter naming no parameter of the campaign (with the names, and
/// "did you mean"); Error(not_found) when no such run has begun, saying how many match.
LogChoice choose_log_run(const CampaignData& data, const PointFilter& filter, std::optional<int> rep, bool stderr_stream);

/// "point n=3, threads=2, rep 1, attempt 2 (running): <path>": the line `sweep logs` prints first, on stderr.
std::string describe_choice(const LogChoice& choice);

/// Copies the file at `path` to `out` from byte `from`, then, while `running()` says the attempt runs,
/// keeps copying what is appended, every `interval`, whole lines at a time; once it has ended, the rest.
/// Returns the bytes copied. Stops early when `stop()` is true (SIGINT). `out` receives raw bytes.
std::size_t follow_file(const std::string& path, std::size_t from, const std::function<bool()>& running,
                        const std::function<bool()>& stop, const std::function<void(std::string_view)>& out,
                        std::chrono::milliseconds interval = std::chrono::milliseconds(200));

}  // namespace sweep::report
