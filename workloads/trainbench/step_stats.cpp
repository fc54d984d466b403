#include "trainbench/step_stats.h"

#include <algorithm>
#include <numeric>

namespace sweep::trainbench {
namespace {

double quantile(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(position);
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (position - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

}  // namespace

StepStats step_stats(const std::vector<double>& seconds, int warmup) {
  const auto skip = static_cast<std::size_t>(std::max(warmup, 0));
  if (seconds.size() <= skip) return {};
  std::vector<double> kept(seconds.begin() + static_cast<std::ptrdiff_t>(skip), seconds.end());
  std::sort(kept.begin(), kept.end());
  StepStats s;
  s.steps = static_cast<int>(kept.size());
  s.mean = std::accumulate(kept.begin(), kept.end(), 0.0) / static_cast<double>(kept.size());
  s.median = quantile(kept, 0.5);
  s.p90 = quantile(kept, 0.9);
  return s;
}

}  // namespace sweep::trainbench
