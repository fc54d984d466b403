#pragma once
// The ratio of two means with its confidence interval. Pure (docs/statistics.md#ratios).
//
// For positive means from samples of at least 2, the interval comes from the delta method on the log of
// the ratio: var(log r) ≈ s_a²/(n_a·a²) + s_b²/(n_b·b²), with Welch–Satterthwaite degrees of freedom over
// the two relative variances, so it is asymmetric around r and never crosses 0. Otherwise the interval
// is unknown and `interval` is false (low = high = ratio).
#include "stats/summary.h"

namespace sweep::stats {

struct Ratio {
  double ratio = 0;  // mean_a / mean_b; NaN when mean_b is 0
  double low = 0, high = 0;
  bool interval = false;
};

/// mean(a)/mean(b) with its `confidence` interval.
Ratio ratio_of_means(const Summary& a, const Summary& b, double confidence = 0.95);

}  // namespace sweep::stats
