#pragma once
// A campaign's forecast (docs/forecasts.md, "The forecast"): per point, the runs, nodes and GPUs per run,
// the expected and upper duration of one run from the first source that gives one, and the totals in
// GPU-hours and node-hours. Pure: the shells (forecast/gather.h, the CLI) hand it what they read.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sweep::forecast {

/// Where a point's durations came from, in the order they are tried.
enum class Source { history, model, time_limit, none };
std::string_view source_name(Source s);
/// The source named `name` ("history", ...); nullopt for another name.
std::optional<Source> source_from_name(std::string_view name);

/// The model's upper duration is its prediction times this margin (the model leaves out start-up and
/// contention: docs/forecasts.md).
inline constexpr double kModelMargin = 1.5;

/// What is known of one point before it runs.
struct PointInput {
  std::string point_id;
  std::string label;                  // "batch=8 nodes=2": for messages; the id when empty
  int runs = 1;                       // repetitions (adaptive: their max)
  int nodes = 1;
  int gpus = 0;                       // per run
  std::vector<double> history_s = {};  // elapsed_s of the same point's succeeded runs (any campaign)
  std::vector<double> history_gpu_energy_j = {};  // those runs' gpu_energy_j, where they have it
  std::vector<double> history_cpu_energy_j = {};  // ... and cpu_energy_j
  std::optional<double> model_s = {};  // the analytical model's prediction of one run
  std::optional<double> time_limit_s = {};  // resources.time after the site's defaults
};

struct PointForecast {
  std::string point_id;
  std::string label;
  int runs = 1;
  int nodes = 1;
  int gpus = 0;
  std::optional<double> expected_s = {};  // one run; none when source is none
  std::optional<double> upper_s = {};
  Source source = Source::none;
  std::size_t history_runs = 0;       // the runs history's figures are of
  std::optional<double> energy_j = {};  // one run's expected energy (history only)

  double gpu_hours(std::optional<double> seconds) const { return seconds ? runs * gpus * *seconds / 3600 : 0; }
  double node_hours(std::optional<double> seconds) const { return seconds ? runs * nodes * *seconds / 3600 : 0; }
};

/// The median of `values` (the mean of the middle two for an even count); values not empty.
double median(std::vector<double> values);
/// The p-th percentile by nearest rank: the ceil(p/100 * n)-th smallest (at least the first); values not empty.
double nearest_rank(std::vector<double> values, double p);

/// The point's forecast from the first source of: history (median, p95), model (prediction, times
/// kModelMargin), time limit (both the limit), none. Energy of one run (history only): the median of
/// gpu_energy_j plus that of cpu_energy_j, of those the runs have.
PointForecast estimate_point(const PointInput& in);

struct Totals {
  std::size_t points = 0;
  std::size_t runs = 0;
  double gpu_hours_expected = 0, gpu_hours_upper = 0;
  double node_hours_expected = 0, node_hours_upper = 0;
  std::optional<double> energy_j;   // over the points with an energy figure; none when no point has one
  std::vector<std::string> unknown; // the points without a duration (their labels)
  std::optional<double> wall_s;     // the campaign's wall time at its concurrency; none when a point is unknown
};

/// Sums `points`; wall_s by forecast/wall_time.h with `slots` runs at once (0: all at once).
Totals totals(const std::vector<PointForecast>& points, std::size_t slots);

}  // namespace sweep::forecast
