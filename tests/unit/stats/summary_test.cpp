#include <catch2/catch.hpp>

#include <vector>

#include "stats/summary.h"

using sweep::stats::summarize;

// Reference values computed by hand and with Python's statistics module (stdev, median).
TEST_CASE("summary of a sample matches reference values") {
  const std::vector<double> x{2, 4, 4, 4, 5, 5, 7, 9};
  const auto s = summarize(x);
  CHECK(s.n == 8);
  CHECK(s.mean == Approx(5.0));
  CHECK(s.sd == Approx(2.138089935299395));
  CHECK(s.median == Approx(4.5));
  CHECK(s.min == 2);
  CHECK(s.max == 9);
}

TEST_CASE("summary of tiny samples") {
  CHECK(summarize(std::vector<double>{}).n == 0);
  const auto one = summarize(std::vector<double>{3.5});
  CHECK(one.mean == 3.5);
  CHECK(one.sd == 0);
  CHECK(one.median == 3.5);
}

TEST_CASE("standard deviation is stable for a large mean with a small spread") {
  const std::vector<double> x{1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16};
  CHECK(summarize(x).sd == Approx(5.477225575051661));
}
