#pragma once
// `success: {where: "..."}`: an expression over a run's metrics that must hold for the run to succeed
// (docs/experiment-format.md#success). Pure.
#include <optional>
#include <string>
#include <vector>

#include "parse/extract.h"
#include "spec/expr.h"

namespace sweep::runner {

/// Evaluates `criterion` (bound to its own names(), each a metric name) over `observations`.
/// A metric with one observation has one value for the whole run; a metric with several (one per
/// message size, say) is read index by index, and the expression must hold at every index any of
/// its metrics has. Returns nullopt when it holds everywhere; otherwise the reason the run failed:
/// the expression, the first index where it is false (or cannot be evaluated, or a metric it reads
/// is missing) with the values it read there, and how many other indexes failed.
std::optional<std::string> criterion_failure(const spec::Expr& criterion,
                                             const std::vector<parse::Observation>& observations);

}  // namespace sweep::runner
