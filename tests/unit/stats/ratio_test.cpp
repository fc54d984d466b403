// The ratio of means and its interval (stats/ratio.h).
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "stats/ratio.h"

using namespace sweep::stats;

TEST_CASE("the ratio of means has a log-symmetric Welch-Satterthwaite interval") {
  // a = {10, 12}, b = {5, 6}: both relative variances of the mean are 1/121, df = 2. Reference values from
  // scipy (python3-scipy 1.10): h = t.ppf(0.975, 2) * sqrt(2/121); 2*exp(-h), 2*exp(h).
  const Ratio r = ratio_of_means(summarize(std::vector<double>{10, 12}), summarize(std::vector<double>{5, 6}));
  CHECK(r.interval);
  CHECK(r.ratio == Approx(2.0));
  CHECK(r.low == Approx(1.1502475667793461).epsilon(1e-9));
  CHECK(r.high == Approx(3.477512246515646).epsilon(1e-9));
  CHECK(std::sqrt(r.low * r.high) == Approx(r.ratio));
}

TEST_CASE("without two values per side or positive means the interval is unknown") {
  const Ratio one = ratio_of_means(summarize(std::vector<double>{10}), summarize(std::vector<double>{5, 6}));
  CHECK_FALSE(one.interval);
  CHECK(one.ratio == Approx(10.0 / 5.5));
  CHECK(one.low == one.ratio);
  const Ratio negative = ratio_of_means(summarize(std::vector<double>{-1, -2}), summarize(std::vector<double>{5, 6}));
  CHECK_FALSE(negative.interval);
  CHECK(std::isnan(ratio_of_means(summarize(std::vector<double>{1, 2}), summarize(std::vector<double>{0, 0})).ratio));
}
