// stats::relative_half_width, size_for_precision, precision_of: the rule of adaptive repetitions.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "stats/precision.h"

using namespace sweep::stats;

TEST_CASE("precision: the interval's half-width relative to the mean, and the sample size a target needs") {
  const std::vector<double> v{98, 102, 100, 101, 99};  // mean 100, sd 1.5811, t(0.975, 4) = 2.7764
  const Summary s = summarize(v);
  CHECK(relative_half_width(s) == Approx(0.019632).epsilon(1e-4));
  // t(0.975, 11) * 1.5811 / sqrt(12) = 1.0046 > 1, t(0.975, 12) * 1.5811 / sqrt(13) = 0.9555 <= 1.
  CHECK(size_for_precision(s, 0.01, 100) == 13);
  CHECK(size_for_precision(s, 0.01, 10) == 10);  // capped
  CHECK(size_for_precision(s, 0.02, 100) == 5);  // met already
  const std::vector<double> one{5};
  CHECK(std::isinf(relative_half_width(summarize(one))));
  CHECK(size_for_precision(summarize(one), 0.01, 100) == 1);
  const std::vector<double> zeros{0, 0, 0};
  CHECK(relative_half_width(summarize(zeros)) == 0);  // an always-zero metric (wrong elements) is exact
  CHECK(size_for_precision(summarize(std::vector<double>{98, 102, 100, 101, 99}), 1e-8, 2'000'000'000) == 2'000'000'000);
  const std::vector<double> around_zero{-1, 1};
  CHECK(std::isinf(relative_half_width(summarize(around_zero))));  // a mean of 0 has no relative precision
}

TEST_CASE("precision_of: the worst index decides, a missing sample is unknown") {
  const std::vector<std::vector<double>> by_index{{100, 100.5, 99.5}, {98, 102, 100, 101, 99}};
  const Precision p = precision_of(by_index, 0.01, 50);
  CHECK(p.values == 3);
  CHECK(p.worst == Approx(0.019632).epsilon(1e-4));  // the second index; the first: 4.3027 * 0.5 / sqrt(3) / 100 = 1.24%
  CHECK(p.wanted == 13);
  CHECK_FALSE(p.met);
  CHECK(precision_of(by_index, 0.02, 50).met);
  const Precision none = precision_of({}, 0.01, 50);
  CHECK(std::isinf(none.worst));
  CHECK_FALSE(none.met);
}
