#pragma once
// The view of a set of points that the report's analyses share: built once per set (a campaign's
// points, or those a table or figure selects) and handed to the tables, declared tables, pivots,
// figures, baselines and defaults, so none of them re-derives the parameter names, which of them vary,
// the metric names, the metrics per message size or a parameter's typed value. The bottom layer of
// report/ (docs/architecture.md, "report/'s layers"). Pure.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/campaign_data.h"
#include "util/value.h"

namespace sweep::report {

/// A parameter's typed value, from its canonical text and its stored type: with param_number, the one
/// place report/ reads store::ParamRecord::type.
Value param_value(const store::ParamRecord& p);
/// The number an int or float parameter holds; nullopt for a bool or a string.
std::optional<double> param_number(const store::ParamRecord& p);

/// The parameter's canonical value text in `p`, or nullptr.
const store::ParamRecord* find_param(const store::PointRecord& p, const std::string& name);
/// "batch=8<sep>nodes=2": the point's values of `names`, those it has, in that order.
std::string param_text(const store::PointRecord& p, const std::vector<std::string>& names, std::string_view sep);
/// "batch=8 nodes=2": the point's parameters (derived ones left out); its id when it has none.
std::string point_label(const store::PointRecord& p);
/// "name=value, ..." of the point's parameters in `params` (those it has), in that order.
std::string param_label(const PointResult& r, const std::vector<std::string>& params);

/// The point's parameter names and typed values, in its order: what an expression over the point
/// (a threshold, a reference's `where`) binds to and evaluates against.
struct PointValues {
  std::vector<std::string> names;
  std::vector<Value> values;
};
PointValues point_values(const store::PointRecord& p);

/// A number at a point: the value of a numeric parameter `name` (param_number), else the mean of the
/// metric `name` over its runs; nullopt when neither exists.
std::optional<double> number_at(const PointResult& r, const std::string& name);

/// Throws Error(usage) `unknown WHAT "n" (did you mean ...) (available: ...)` unless every name is known
/// (a name a view lacks: a parameter, a metric).
void require_known(const std::vector<std::string>& names, const std::vector<std::string>& known, const char* what);

/// The metric that holds the message size of each index (report/size_tables.h).
inline constexpr std::string_view kSizeMetric = "size_bytes";

/// The metrics (in name order) that have one value per message size at some point: at least two
/// indices, the same indices as `size_bytes` has there. size_bytes is among them when any is. A
/// metric of the whole run or of a whole table (busbw_avg, busbw_peak) is not.
std::vector<std::string> size_indexed_metrics(const std::vector<PointResult>& results);

/// What the analyses read of a set of points, derived once. It refers to `results`, which must outlive
/// it. Implicit: an analysis handed bare points builds its view of them; a caller that runs several
/// analyses over the same points builds the view once and hands it to each.
struct PointsView {
  PointsView(const std::vector<PointResult>& results);  // NOLINT(google-explicit-constructor)

  const std::vector<PointResult>& results;
  std::vector<std::string> params;        // every parameter of the first point, in schema order
  /// The non-derived parameters that take more than one value; every non-derived one when none does.
  std::vector<std::string> varying;
  std::vector<std::string> metrics;       // every metric name some point has, sorted
  std::vector<std::string> size_indexed;  // size_indexed_metrics(results)

  bool has_param(const std::string& name) const;
  bool has_metric(const std::string& name) const;
};

}  // namespace sweep::report
