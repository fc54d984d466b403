#include "stats/precision.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "stats/distributions.h"

namespace sweep::stats {

double relative_half_width(const Summary& s) {
  if (s.n < 2) return std::numeric_limits<double>::infinity();
  if (s.sd == 0) return 0;  // every value the same: the mean is exact, whatever it is
  if (s.mean == 0) return std::numeric_limits<double>::infinity();
  return (s.ci_high - s.mean) / std::fabs(s.mean);
}

std::size_t size_for_precision(const Summary& s, double target, std::size_t cap) {
  if (s.n < 2 || relative_half_width(s) <= target || s.mean == 0) return s.n;
  // The half-width t(0.975, m - 1) * sd / sqrt(m) falls as m grows: the smallest m that meets the
  // target is found by bisection over (n, cap].
  const auto meets = [&](std::size_t m) {
    const double half = t_quantile(0.5 + s.confidence / 2, static_cast<double>(m - 1)) * s.sd / std::sqrt(static_cast<double>(m));
    return half <= target * std::fabs(s.mean);
  };
  if (cap <= s.n || !meets(cap)) return std::max(cap, s.n);
  std::size_t low = s.n, high = cap;  // low fails, high meets
  while (high - low > 1) {
    const std::size_t mid = low + (high - low) / 2;
    (meets(mid) ? high : low) = mid;
  }
  return high;
}

Precision precision_of(const std::vector<std::vector<double>>& by_index, double target, std::size_t cap) {
  Precision p;
  if (by_index.empty()) {
    p.worst = std::numeric_limits<double>::infinity();
    return p;
  }
  p.values = std::numeric_limits<std::size_t>::max();
  for (const auto& sample : by_index) {
    const Summary s = summarize(sample);
    p.values = std::min(p.values, s.n);
    p.worst = std::max(p.worst, relative_half_width(s));
    p.wanted = std::max(p.wanted, size_for_precision(s, target, cap));
  }
  p.met = p.worst <= target;
  return p;
}

}  // namespace sweep::stats
