#pragma once
// A campaign's wall time at its concurrency, an estimate (docs/forecasts.md): its runs in the
// campaign's default run order (interleaved: repetition 0 of every point, then 1, ...) started `slots`
// at a time, each when the earliest running one ends, each taking its point's expected duration. Pure.
#include <cstddef>
#include <vector>

#include "forecast/estimate.h"

namespace sweep::forecast {

/// The wall time in seconds of `points`' runs packed `slots` at a time (0: all at once). A point
/// without an expected duration counts as 0 (callers report those as unknown).
double wall_seconds(const std::vector<PointForecast>& points, std::size_t slots);

}  // namespace sweep::forecast
