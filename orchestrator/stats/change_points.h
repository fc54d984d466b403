#pragma once
// Change points of a series of values in time order, such as one point's mean of a metric night after
// night: where a lasting shift begins. Pure (docs/statistics.md#change-points-over-a-history).
//
// Method: E-divisive (Matteson & James, "A Nonparametric Approach for Multiple Change Point Analysis of
// Multivariate Data", JASA 109(505), 2014) with the energy-distance exponent alpha = 1, as MongoDB uses
// it on its CI performance series (Daly et al., "The Use of Change Point Detection to Identify Software
// Performance Regressions in a Continuous Integration System", ICPE 2020):
//
//   - The divergence of a segment split at tau into X (m values before) and Y (k values from tau on) is
//     Q = m·k/(m+k) · (2/(m·k) Σ|x−y| − Σ_{i<j}|x_i−x_j| / C(m,2) − Σ_{i<j}|y_i−y_j| / C(k,2)), the
//     energy distance between the two sides scaled by their sizes.
//   - Binary segmentation: the split with the largest Q over every segment of the series so far (each
//     side at least `min_segment` values) is the candidate.
//   - Permutation test: the values are shuffled within each segment `permutations` times and the
//     largest Q found again; p = (1 + #{shuffled Q ≥ Q}) / (1 + permutations). The candidate is kept
//     when p < `significance`, and segmentation goes on; the first candidate that fails ends it.
//
// The shuffles come from a seeded std::mt19937_64 with a hand-written Fisher–Yates (std::shuffle's
// algorithm is the library's), so the same series gives the same answer on every platform.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace sweep::stats {

struct ChangePointOptions {
  std::size_t min_segment = 3;     // values on each side of a change point at least (2 at the least)
  std::size_t permutations = 199;  // shuffles per test: the smallest p is 1/(1 + permutations)
  double significance = 0.05;      // a candidate is kept when its p is below this
  std::uint64_t seed = 20140101;   // of the shuffles
};

struct ChangePoint {
  std::size_t index = 0;  // into the series: the first value of the new level
  double before = 0;      // mean of the segment that ends just before `index` (at the previous change point)
  double after = 0;       // mean of the segment that starts at `index` (up to the next change point)
  double relative = 0;    // (after − before) / |before|; NaN when before is 0
  double statistic = 0;   // Q of the split when it was found
  double p = 1;           // its permutation p-value
};

/// The change points of `series`, by ascending index. Non-finite values (missing nights) are left out
/// of the computation; indices still count them, so `index` is the series' own. Fewer than
/// 2·min_segment finite values, or a constant series, give none.
std::vector<ChangePoint> change_points(std::span<const double> series, const ChangePointOptions& options = {});

}  // namespace sweep::stats
