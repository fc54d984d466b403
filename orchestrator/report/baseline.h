#pragma once
// The one rule that finds a point's baseline point, for derived columns, scaling figures and the
// report's model (docs/reports.md#baselines). Pure.
//
// Under `baseline: {match: {nodes: 1, gpus_per_node: 1}, ignore: [parallelism]}` the baseline of a point p
// is the point whose `match` parameters take those values and whose every other non-derived parameter
// outside `ignore` equals p's. The short form `baseline: {nodes: 1, gpus_per_node: 1}` ignores nothing.
// Two points that could both be the baseline of a point are a conflict, never a silent choice.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "report/points_view.h"
#include "spec/report_spec.h"

namespace sweep::report {

/// Two points, `first` and `second`, that could both be the baseline of `point` (indices into results).
struct BaselineConflict {
  std::size_t point = 0, first = 0, second = 0;
};

/// Every point's baseline point (nullopt where the campaign has none) or the first conflict.
struct BaselineMatches {
  std::vector<std::optional<std::size_t>> of;  // empty when `conflict` is set
  std::optional<BaselineConflict> conflict;
};

/// Matches every point in one pass. Error(usage) when a `match` or `ignore` name is not a parameter
/// of the points.
BaselineMatches match_baselines(const PointsView& points, const spec::Baseline& baseline);

/// The baseline point of every point; Error(usage) on a conflict, naming both points and the point
/// they compete for, or on an unknown name (callers place it with at_location).
std::vector<std::optional<std::size_t>> baseline_indices(const PointsView& points, const spec::Baseline& baseline);
/// The same for results[i] alone.
std::optional<std::size_t> baseline_index(const std::vector<PointResult>& results, std::size_t i,
                                          const spec::Baseline& baseline);

/// The baseline point of each of `selected` (points of `all`, e.g. those a table's `where` keeps), found
/// among every point of `all`: a selection need not keep its baselines. nullptr where none; errors as
/// baseline_indices over `all`.
std::vector<const PointResult*> baselines_of(const std::vector<PointResult>& selected, const PointsView& all,
                                             const spec::Baseline& baseline);

/// "{nodes: 1, gpus_per_node: 1} ignoring [parallelism]": the baseline as written, for messages.
std::string describe(const spec::Baseline& baseline);

/// Where a baseline's errors point: its own place in the file, or `owner`'s (its table, figure or
/// model) when it has none, as for the default tables.
const SourceLocation& where_of(const spec::Baseline& baseline, const SourceLocation& owner);

}  // namespace sweep::report
