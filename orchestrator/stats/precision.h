#pragma once
// How precise a point's mean is, and how many repetitions a target precision needs: the rule of
// adaptive repetitions (`repetitions: {min, max, until: {metric, ci95_rel}}`, docs/statistics.md). Pure.
#include <cstddef>
#include <vector>

#include "stats/summary.h"

namespace sweep::stats {

/// The half-width of s's confidence interval as a fraction of |mean|: how precise the mean is.
/// 0 when every value is the same (sd 0); +infinity when n < 2, or the mean is 0 and the values vary.
double relative_half_width(const Summary& s);

/// The smallest sample size m in [s.n, cap] whose interval (t with m - 1 degrees of freedom, at
/// s.confidence) would be at most `target` of the mean if s's mean and standard deviation held; cap
/// when none is. s.n when n < 2 (nothing to estimate from) or s already meets the target.
std::size_t size_for_precision(const Summary& s, double target, std::size_t cap);

/// A metric's precision at one point, over its indexes (one sample per index: a per-size metric has
/// several, a run-wide metric one).
struct Precision {
  std::size_t values = 0;  // the smallest sample over the indexes
  double worst = 0;        // the largest relative half-width over the indexes (+infinity: unknown)
  std::size_t wanted = 0;  // the largest size_for_precision over the indexes
  bool met = false;        // worst <= target; false with no index
};

/// The precision of the samples (each one index's values over the point's runs) against `target`,
/// sizes capped at `cap`.
Precision precision_of(const std::vector<std::vector<double>>& by_index, double target, std::size_t cap);

}  // namespace sweep::stats
