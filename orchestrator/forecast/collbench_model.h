#pragma once
// The analytical model's time of one collbench run (docs/forecasts.md, source `model`; docs/model.md):
// for `--op allreduce` (the default), the sum over its message sizes (`--min-bytes` to `--max-bytes`,
// times `--factor`) of (warmup + iters) ring all-reduces of that size over the run's ranks, each
// α-β's time (model::allreduce_seconds), twice with `--inplace`. Start-up, the exact check and the
// other collectives are left out: the forecast's upper is this times kModelMargin. Pure.
#include <optional>
#include <string>
#include <vector>

#include "model/interconnect.h"
#include "model/predict.h"
#include "spec/bundled.h"

namespace sweep::forecast {

/// collbench's defaults (workloads/collbench/options.cpp).
inline constexpr double kCollbenchDefaultBytes = 32.0 * 1024 * 1024;

/// The link of interconnect `name` in `table` (model/interconnect.h: GB/s to bytes/s, µs to s, an unknown
/// latency as 0, full duplex); nullopt for a name not in it.
std::optional<model::Link> named_link(const std::vector<model::Interconnect>& table, const std::string& name);

/// Seconds of one run of collbench with `args` (the options rendered at a point) on `ranks` ranks over
/// `link`; nullopt where the model gives none: fewer than 2 ranks, another op, `--params`, a value unknown before the run or
/// not a size or count.
std::optional<double> collbench_seconds(const spec::BundledValues& args, int ranks, const model::Link& link);

}  // namespace sweep::forecast
