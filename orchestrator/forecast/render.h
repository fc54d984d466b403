#pragma once
// The forecast as a user reads it (`sweep plan --estimate`, `sweep run`'s totals line) and as JSON
// (plan JSON version 2's "estimate", docs/experiment-format.md). Pure.
#include <string>
#include <vector>

#include "forecast/estimate.h"

namespace sweep::forecast {

/// How the wall time was packed, for the output: "--jobs 2", "--max-running 8", "all at once".
struct Concurrency {
  std::size_t slots = 0;  // 0: all at once
  std::string said;
};

/// The totals in one line: "forecast: 3 points, 6 runs; 0.0500 GPU-hours expected, 0.0600 upper; ...".
std::string totals_line(const Totals& t, const Concurrency& c);

/// A table of the points (their labels, runs, nodes, GPUs, expected and upper seconds, source, GPU-hours)
/// then totals_line, each line ending in '\n'.
std::string text_table(const std::vector<PointForecast>& points, const Totals& t, const Concurrency& c);

/// {"points":[...],"totals":{...},"concurrency":N,"expected_start":...}: `expected_start` the scheduler's
/// answer as given ("" writes null: unknown or not asked).
std::string json_object(const std::vector<PointForecast>& points, const Totals& t, const Concurrency& c,
                        const std::string& expected_start);

}  // namespace sweep::forecast
