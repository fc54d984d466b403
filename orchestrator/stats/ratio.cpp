#include "stats/ratio.h"

#include <cmath>
#include <limits>

#include "stats/distributions.h"

namespace sweep::stats {

Ratio ratio_of_means(const Summary& a, const Summary& b, double confidence) {
  Ratio r;
  if (b.mean == 0) {
    r.ratio = r.low = r.high = std::numeric_limits<double>::quiet_NaN();
    return r;
  }
  r.ratio = r.low = r.high = a.mean / b.mean;
  if (!(a.mean > 0 && b.mean > 0 && a.n > 1 && b.n > 1)) return r;
  r.interval = true;
  const double va = a.sd * a.sd / (static_cast<double>(a.n) * a.mean * a.mean);
  const double vb = b.sd * b.sd / (static_cast<double>(b.n) * b.mean * b.mean);
  if (va + vb == 0) return r;
  const double df = (va + vb) * (va + vb) / (va * va / static_cast<double>(a.n - 1) + vb * vb / static_cast<double>(b.n - 1));
  const double half = t_quantile(0.5 + confidence / 2, df) * std::sqrt(va + vb);
  const double log_ratio = std::log(r.ratio);
  r.low = std::exp(log_ratio - half);
  r.high = std::exp(log_ratio + half);
  return r;
}

}  // namespace sweep::stats
