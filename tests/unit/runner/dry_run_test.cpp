#include <catch2/catch.hpp>

#include "runner/dry_run.h"

using namespace sweep;

TEST_CASE("a dry run's sample spreads over the runs, the first and the last among them") {
  using V = std::vector<std::size_t>;
  CHECK(runner::spread_sample(10, 0) == V{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});  // 0: every one
  CHECK(runner::spread_sample(3, 5) == V{0, 1, 2});                        // fewer runs than the sample
  CHECK(runner::spread_sample(10, 1) == V{0});
  CHECK(runner::spread_sample(10, 2) == V{0, 9});
  CHECK(runner::spread_sample(10, 4) == V{0, 3, 6, 9});
  CHECK(runner::spread_sample(0, 4).empty());
  const V big = runner::spread_sample(1'000'000'000'000ULL, 100);
  REQUIRE(big.size() == 100);
  CHECK(big.front() == 0);
  CHECK(big.back() == 999'999'999'999ULL);
  for (std::size_t i = 1; i < big.size(); ++i) CHECK(big[i] > big[i - 1]);
}
