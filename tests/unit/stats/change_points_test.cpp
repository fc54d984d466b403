// stats/change_points.h: E-divisive with a permutation test, on seeded synthetic nightly histories: a
// planted shift is found at its night, and histories without one give none.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "stats/change_points.h"

using namespace sweep::stats;

namespace {

/// `nights` values from N(level, sd), the level multiplied by `factor` from night `shift` on.
std::vector<double> history(unsigned seed, std::size_t nights, std::size_t shift, double factor, double sd = 1.5) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0, sd);
  std::vector<double> out;
  for (std::size_t i = 0; i < nights; ++i) out.push_back((i < shift ? 100.0 : 100.0 * factor) + noise(rng));
  return out;
}

/// The change point at `index`, or nullptr.
const ChangePoint* at(const std::vector<ChangePoint>& found, std::size_t index) {
  for (const auto& c : found)
    if (c.index == index) return &c;
  return nullptr;
}

}  // namespace

TEST_CASE("change points: a planted 10% drop at night 20 of 40 is found at that night") {
  const auto found = change_points(history(1, 40, 20, 0.90));  // noise 1.5%
  REQUIRE(found.size() == 1);
  CHECK(found[0].index == 20);
  CHECK(found[0].relative == Approx(-0.10).margin(0.015));
  CHECK(found[0].before == Approx(100).margin(1.5));
  CHECK(found[0].after == Approx(90).margin(1.5));
  CHECK(found[0].p == Approx(1.0 / 200));  // no shuffle comes near it
  CHECK(found[0].statistic > 100);
}

TEST_CASE("change points: over 50 seeds the planted drop is always at night 20, and other finds are rare") {
  // Each further split is tested at 0.05 too, so about 5% of the histories also get a small spurious
  // change point within one of the two levels (4% of 200 seeds when this was written).
  std::size_t spurious = 0;
  for (unsigned seed = 1; seed <= 50; ++seed) {
    INFO("seed " << seed);
    const auto found = change_points(history(seed, 40, 20, 0.90));
    const ChangePoint* planted = at(found, 20);
    REQUIRE(planted);
    CHECK(planted->relative < -0.08);
    CHECK(planted->p == Approx(1.0 / 200));
    spurious += found.size() - 1;
  }
  CHECK(spurious <= 6);
}

TEST_CASE("change points: a rise and a fall back are two change points with their own segments") {
  std::vector<double> x = history(7, 40, 15, 1.10);
  const std::vector<double> late = history(8, 40, 40, 1.0);
  for (std::size_t i = 28; i < 40; ++i) x[i] = late[i];  // back to 100 from night 28
  const auto found = change_points(x);
  REQUIRE(found.size() == 2);
  CHECK(found[0].index == 15);
  CHECK(found[0].relative == Approx(0.10).margin(0.015));
  CHECK(found[1].index == 28);
  CHECK(found[1].before == Approx(110).margin(1.5));
  CHECK(found[1].after == Approx(100).margin(1.5));
  CHECK(found[1].p < 0.05);
}

TEST_CASE("change points: histories without a shift give none, and false alarms stay near the level") {
  for (unsigned seed : {11u, 12u, 13u, 14u, 15u}) {
    INFO("seed " << seed);
    CHECK(change_points(history(seed, 40, 40, 1.0)).empty());
  }
  // The permutation test's level: of 200 shift-free histories about 5% (10) have a false change point.
  std::size_t alarms = 0;
  for (unsigned seed = 100; seed < 300; ++seed) alarms += !change_points(history(seed, 30, 30, 1.0)).empty();
  CHECK(alarms <= 20);
}

TEST_CASE("change points: too short, constant and missing nights") {
  CHECK(change_points(std::vector<double>{}).empty());
  CHECK(change_points(std::vector<double>{100, 100, 100, 90, 90}).empty());  // fewer than 2 x 3 values
  CHECK(change_points(std::vector<double>(40, 100.0)).empty());              // no divergence, no 0/0
  CHECK(change_points(std::vector<double>(40, 0.0)).empty());
  // Missing nights (NaN) are skipped; the index is still the series' own.
  std::vector<double> x = history(21, 40, 20, 0.90);
  x[3] = x[19] = x[25] = NAN;
  const auto found = change_points(x);
  const ChangePoint* planted = at(found, 20);
  REQUIRE(planted);
  CHECK(std::isfinite(planted->before));
  CHECK(planted->relative < -0.08);
  x[20] = NAN;  // the first night of the new level missing: the next night with a value starts it
  const auto later = change_points(x);
  CHECK(at(later, 21));
  CHECK_FALSE(at(later, 20));
}

TEST_CASE("change points: the divergence is Matteson and James' Q, and the p-value counts the shuffles") {
  // {0,0,0,1,1,1} split at 3: no distance within a side, 9 across: Q = 3·3/6 · 2·9/9 = 3. Of the 20 ways to
  // deal the values into two halves, 2 give Q = 3 again: p is about 0.1, too large at the default level.
  const std::vector<double> step{0, 0, 0, 1, 1, 1};
  CHECK(change_points(step).empty());
  ChangePointOptions lenient;
  lenient.significance = 0.5;
  lenient.permutations = 999;
  const auto found = change_points(step, lenient);
  REQUIRE(found.size() == 1);
  CHECK(found[0].index == 3);
  CHECK(found[0].statistic == Approx(3.0));
  CHECK(found[0].p == Approx(0.1).margin(0.03));
  CHECK(std::isnan(found[0].relative));  // before is 0
  // Reference from a direct O(n³) evaluation (Python): Q of {1,4,2,9,8,10,3} split at 3 (the best) is
  // 3·4/7 · (2·64/12 − 6/3 − 22/6) = 60/7; at 2 it is 16/7, at 4 and 5 below 0.
  CHECK(change_points(step, lenient).front().p == found[0].p);  // seeded: the same answer every time
  lenient.min_segment = 2;
  const auto odd = change_points(std::vector<double>{1, 4, 2, 9, 8, 10, 3}, lenient);
  REQUIRE(!odd.empty());
  CHECK(odd[0].index == 3);
  CHECK(odd[0].statistic == Approx(60.0 / 7));
}
