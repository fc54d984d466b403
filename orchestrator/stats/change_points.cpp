#include "stats/change_points.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

namespace sweep::stats {
namespace {

/// The best split of one segment: `tau` values before it, divergence `q`.
struct Split {
  std::size_t begin = 0;  // the segment's first value
  std::size_t tau = 0;    // the split, relative to `begin`; 0 = none
  double q = -std::numeric_limits<double>::infinity();
};

/// Σ|x_i − x_j| over i < j.
double within(std::span<const double> x) {
  double sum = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = i + 1; j < x.size(); ++j) sum += std::abs(x[i] - x[j]);
  return sum;
}

/// The sums of distances of a split at tau: within the left side, within the right side, across.
struct Sums {
  double left = 0, right = 0, across = 0;
};

double divergence(const Sums& s, std::size_t m, std::size_t k) {
  const auto dm = static_cast<double>(m), dk = static_cast<double>(k);
  const double energy = 2 * s.across / (dm * dk) - s.left / (dm * (dm - 1) / 2) - s.right / (dk * (dk - 1) / 2);
  return dm * dk / (dm + dk) * energy;
}

/// The split of `x` with the largest divergence, each side at least `min` values; tau = 0 when `x` is
/// too short. O(n²): moving tau by one moves one value's distances from one sum to the others.
Split best_split(std::span<const double> x, std::size_t min) {
  Split best;
  const std::size_t n = x.size();
  if (n < 2 * min) return best;
  Sums s{within(x.first(min)), within(x.subspan(min)), 0};
  s.across = within(x) - s.left - s.right;
  for (std::size_t tau = min;; ++tau) {
    if (const double q = divergence(s, tau, n - tau); q > best.q) best = {0, tau, q};
    if (tau + min >= n) break;
    double to_left = 0, to_right = 0;  // the distances of x[tau] to the values before and after it
    for (std::size_t i = 0; i < tau; ++i) to_left += std::abs(x[i] - x[tau]);
    for (std::size_t j = tau + 1; j < n; ++j) to_right += std::abs(x[j] - x[tau]);
    s.left += to_left;
    s.right -= to_right;
    s.across += to_right - to_left;
  }
  return best;
}

/// The best split over every segment between consecutive `bounds` (0, ..., x.size()).
Split best_over(std::span<const double> x, const std::vector<std::size_t>& bounds, std::size_t min) {
  Split best;
  for (std::size_t s = 0; s + 1 < bounds.size(); ++s) {
    Split here = best_split(x.subspan(bounds[s], bounds[s + 1] - bounds[s]), min);
    here.begin = bounds[s];
    if (here.tau > 0 && here.q > best.q) best = here;
  }
  return best;
}

/// A uniform integer in [0, n), by rejection: the same on every platform, unlike
/// std::uniform_int_distribution.
std::uint64_t below(std::mt19937_64& rng, std::uint64_t n) {
  const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % n;
  std::uint64_t r = rng();
  while (r >= limit) r = rng();
  return r % n;
}

/// Fisher–Yates within each segment.
void shuffle_within(std::vector<double>& x, const std::vector<std::size_t>& bounds, std::mt19937_64& rng) {
  for (std::size_t s = 0; s + 1 < bounds.size(); ++s)
    for (std::size_t i = bounds[s + 1] - 1; i > bounds[s]; --i)
      std::swap(x[i], x[bounds[s] + below(rng, i - bounds[s] + 1)]);
}

/// The permutation p-value of divergence `q` against the segmentation `bounds`.
/// A shuffled Q within rounding of q counts as large as it.
double permutation_p(std::span<const double> x, const std::vector<std::size_t>& bounds, double q, std::size_t min,
                     std::size_t permutations, std::mt19937_64& rng) {
  std::vector<double> shuffled(x.begin(), x.end());
  std::size_t as_large = 0;
  for (std::size_t r = 0; r < permutations; ++r) {
    shuffle_within(shuffled, bounds, rng);
    as_large += best_over(shuffled, bounds, min).q >= q * (1 - 1e-12);
  }
  return static_cast<double>(1 + as_large) / static_cast<double>(1 + permutations);
}

double mean_of(std::span<const double> x) { return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size()); }

/// The change points at `found` (indices into `x`, with their Q and p) with the means of their
/// adjacent segments, at the indices of the series `x` was taken from (`at`).
std::vector<ChangePoint> described(std::span<const double> x, std::vector<ChangePoint> found, const std::vector<std::size_t>& at) {
  std::sort(found.begin(), found.end(), [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
  for (std::size_t c = 0; c < found.size(); ++c) {
    const std::size_t from = c == 0 ? 0 : found[c - 1].index, to = c + 1 == found.size() ? x.size() : found[c + 1].index;
    found[c].before = mean_of(x.subspan(from, found[c].index - from));
    found[c].after = mean_of(x.subspan(found[c].index, to - found[c].index));
    found[c].relative = found[c].before == 0 ? NAN : (found[c].after - found[c].before) / std::abs(found[c].before);
  }
  for (auto& c : found) c.index = at[c.index];
  return found;
}

}  // namespace

std::vector<ChangePoint> change_points(std::span<const double> series, const ChangePointOptions& options) {
  std::vector<double> x;
  std::vector<std::size_t> at;  // the series' index of each finite value
  for (std::size_t i = 0; i < series.size(); ++i)
    if (std::isfinite(series[i])) x.push_back(series[i]), at.push_back(i);
  const std::size_t min = std::max<std::size_t>(options.min_segment, 2);
  std::mt19937_64 rng(options.seed);
  std::vector<std::size_t> bounds{0, x.size()};
  std::vector<ChangePoint> found;
  for (;;) {
    const Split best = best_over(x, bounds, min);
    if (best.tau == 0 || !(best.q > 0)) break;  // nothing left to split, or no divergence at all
    const double p = permutation_p(x, bounds, best.q, min, options.permutations, rng);
    if (!(p < options.significance)) break;
    const std::size_t index = best.begin + best.tau;
    found.push_back({index, 0, 0, 0, best.q, p});
    bounds.insert(std::upper_bound(bounds.begin(), bounds.end(), index), index);
  }
  return described(x, std::move(found), at);
}

}  // namespace sweep::stats
