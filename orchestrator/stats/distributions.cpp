#include "stats/distributions.h"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <mutex>

namespace sweep::stats {
namespace {

// Domain, pole, overflow and evaluation errors return NaN (or infinity) instead of throwing.
using Quiet = boost::math::policies::policy<boost::math::policies::domain_error<boost::math::policies::ignore_error>,
                                            boost::math::policies::pole_error<boost::math::policies::ignore_error>,
                                            boost::math::policies::overflow_error<boost::math::policies::ignore_error>,
                                            boost::math::policies::evaluation_error<boost::math::policies::ignore_error>,
                                            boost::math::policies::promote_double<false>>;
using StudentT = boost::math::students_t_distribution<double, Quiet>;
using Normal = boost::math::normal_distribution<double, Quiet>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool valid_df(double df) { return df > 0 && !std::isnan(df); }

}  // namespace

double t_cdf(double t, double df) {
  if (std::isnan(t) || !valid_df(df)) return kNaN;
  if (std::isinf(t)) return t > 0 ? 1 : 0;
  return boost::math::cdf(StudentT(df), t);
}

double t_two_sided_p(double t, double df) {
  if (std::isnan(t) || !valid_df(df)) return kNaN;
  if (std::isinf(t)) return 0;
  return 2 * boost::math::cdf(boost::math::complement(StudentT(df), std::fabs(t)));
}

double t_quantile(double p, double df) {
  if (!(p > 0 && p < 1) || !valid_df(df)) return kNaN;
  static std::mutex mutex;
  static std::array<std::array<double, 2>, 1001> cache{};  // [df] = {p, quantile} of the last call
  const bool cacheable = df >= 1 && df <= 1000 && df == std::floor(df);
  const auto slot = static_cast<std::size_t>(cacheable ? df : 0);
  if (cacheable) {
    std::lock_guard lock(mutex);
    if (cache[slot][0] == p) return cache[slot][1];
  }
  const double q = boost::math::quantile(StudentT(df), p);
  if (cacheable) {
    std::lock_guard lock(mutex);
    cache[slot] = {p, q};
  }
  return q;
}

double normal_cdf(double z) {
  if (std::isnan(z)) return kNaN;
  if (std::isinf(z)) return z > 0 ? 1 : 0;
  return boost::math::cdf(Normal(), z);
}

double normal_sf(double z) {
  if (std::isnan(z)) return kNaN;
  if (std::isinf(z)) return z > 0 ? 0 : 1;
  return boost::math::cdf(boost::math::complement(Normal(), z));
}

double normal_quantile(double p) {
  if (!(p > 0 && p < 1)) return kNaN;
  return boost::math::quantile(Normal(), p);
}

}  // namespace sweep::stats
