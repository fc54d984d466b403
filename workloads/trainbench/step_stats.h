#pragma once
// Summary of measured step times. Pure.
#include <vector>

namespace sweep::trainbench {

struct StepStats {
  double mean = 0;
  double median = 0;
  double p90 = 0;  // linear interpolation between order statistics, as numpy's default
  int steps = 0;
};

/// Statistics of `seconds` without its first `warmup` entries; all zero when none remain.
StepStats step_stats(const std::vector<double>& seconds, int warmup);

}  // namespace sweep::trainbench
