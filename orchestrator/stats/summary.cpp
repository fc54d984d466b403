#include "stats/summary.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace sweep::stats {

Summary summarize(std::span<const double> values) {
  Summary s;
  s.n = values.size();
  if (s.n == 0) return s;
  // Welford's update: numerically stable for samples with a large mean and a small spread.
  double mean = 0, m2 = 0;
  std::size_t k = 0;
  for (double x : values) {
    ++k;
    const double delta = x - mean;
    mean += delta / static_cast<double>(k);
    m2 += delta * (x - mean);
  }
  s.mean = mean;
  s.sd = s.n > 1 ? std::sqrt(m2 / static_cast<double>(s.n - 1)) : 0.0;
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  s.min = sorted.front();
  s.max = sorted.back();
  const std::size_t mid = s.n / 2;
  s.median = s.n % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return s;
}

}  // namespace sweep::stats
