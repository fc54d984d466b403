// Verdicts on a baseline and a candidate sample: each rule of comparison.h, the direction of the
// metric, and the repetitions that would resolve an inconclusive result.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "stats/comparison.h"

using namespace sweep::stats;

namespace {
const std::vector<double> kBase{100, 101, 99, 100.5, 99.5};
}

TEST_CASE("a clear drop is a regression for throughput and an improvement for time") {
  const std::vector<double> lower{90, 91, 89, 90.5, 89.5};
  const Comparison throughput = compare(kBase, lower, Better::higher);
  CHECK(throughput.verdict == Verdict::regressed);
  CHECK(throughput.relative == Approx(-0.1));
  CHECK(throughput.relative_low < -0.1);
  CHECK(throughput.relative_high > -0.1);
  CHECK(throughput.relative_high < 0);
  CHECK(throughput.effect_size < -5);
  CHECK_THAT(throughput.reason, Catch::StartsWith("-10.00% (p = "));
  CHECK(compare(kBase, lower, Better::lower).verdict == Verdict::improved);
  CHECK(compare(kBase, lower, Better::none).verdict == Verdict::changed);
}

TEST_CASE("a significant change within the threshold counts as unchanged") {
  const std::vector<double> quiet{100, 100.1, 99.9, 100.05, 99.95}, slightly{101, 101.1, 100.9, 101.05, 100.95};  // +1%
  CompareOptions o;
  CHECK(compare(quiet, slightly, Better::higher, o).verdict == Verdict::improved);
  o.threshold = 0.02;
  const Comparison c = compare(quiet, slightly, Better::higher, o);
  CHECK(c.verdict == Verdict::unchanged);
  CHECK_THAT(c.reason, Catch::Contains("within the 2.00% threshold"));
}

TEST_CASE("a significant change from a baseline mean of 0 is never unchanged") {
  const std::vector<double> zero{0, 0, 0}, busy{0.48, 0.47, 0.49};  // CPU seconds of an idle and a busy run
  CompareOptions o;
  o.threshold = 0.05;
  const Comparison c = compare(zero, busy, Better::lower, o);
  CHECK(c.verdict == Verdict::regressed);
  CHECK(c.relative == 0);  // no relative size: the writers show none
  CHECK_THAT(c.reason, Catch::StartsWith("from a mean of 0 to 0.48 (p = "));
  CHECK(compare(zero, busy, Better::higher, o).verdict == Verdict::improved);
  CHECK(compare(zero, busy, Better::none, o).verdict == Verdict::changed);
  const std::vector<double> negative{-0.48, -0.47, -0.49};
  CHECK(compare(zero, negative, Better::lower, o).verdict == Verdict::improved);
  CHECK(compare(zero, zero, Better::lower, o).verdict == Verdict::unchanged);
}

TEST_CASE("no change on quiet samples is unchanged, on noisy ones it is inconclusive, with the repetitions needed") {
  const std::vector<double> same{100.2, 100.8, 99.1, 100.3, 99.6};
  CHECK(compare(kBase, same, Better::higher).verdict == Verdict::unchanged);
  const std::vector<double> noisy_base{80, 120, 95, 110, 90}, noisy{85, 125, 90, 115, 100};
  const Comparison c = compare(noisy_base, noisy, Better::higher);
  CHECK(c.verdict == Verdict::inconclusive);
  CHECK(c.repetitions_needed > 5);
  CHECK_THAT(c.reason, Catch::Contains("repetitions each would tell"));
  // More repetitions of the same spread shrink the interval: the estimate is what resolves it.
  std::vector<double> more_base, more;
  for (std::size_t i = 0; i < c.repetitions_needed * 2; ++i) {
    more_base.push_back(noisy_base[i % 5]);
    more.push_back(noisy_base[i % 5] + (i % 2 ? 0.5 : -0.5));
  }
  CHECK(compare(more_base, more, Better::higher).verdict == Verdict::unchanged);
}

TEST_CASE("too few repetitions are inconclusive whatever the means") {
  const Comparison c = compare(std::vector<double>{100, 101}, std::vector<double>{50, 51}, Better::higher);
  CHECK(c.verdict == Verdict::inconclusive);
  CHECK(c.reason == "too few repetitions (2 and 2; at least 3 each)");
  CHECK(c.repetitions_needed >= 3);
}

TEST_CASE("constant samples: equal is unchanged, different is certain") {
  const std::vector<double> a{5, 5, 5}, b{6, 6, 6};
  CHECK(compare(a, a, Better::lower).verdict == Verdict::unchanged);
  const Comparison c = compare(a, b, Better::lower);
  CHECK(c.verdict == Verdict::regressed);
  CHECK(c.welch.p == 0);
}

TEST_CASE("verdicts and directions have names") {
  CHECK(name_of(Verdict::inconclusive) == "inconclusive");
  Better b = Better::none;
  CHECK(parse_better("lower", b));
  CHECK(b == Better::lower);
  CHECK_FALSE(parse_better("smaller", b));
}

TEST_CASE("bit-identical noisy samples are unchanged, in any order, where a noisy pair with the same mean is not") {
  const std::vector<double> night{0.27, 0.41, 0.25}, shuffled{0.25, 0.27, 0.41};
  const Comparison same = compare(night, shuffled, Better::lower);
  CHECK(same.identical);
  CHECK(same.verdict == Verdict::unchanged);
  CHECK(same.reason == "the 3 values of each side are identical");
  // The same mean and a similar spread, but other values: the interval decides, and it is too wide.
  const std::vector<double> other{0.26, 0.42, 0.25};
  const Comparison noisy = compare(night, other, Better::lower);
  CHECK_FALSE(noisy.identical);
  CHECK(noisy.verdict == Verdict::inconclusive);
}

TEST_CASE("a power hint never asks for fewer runs than a side has, and says when more runs cannot tell") {
  // Three runs a side, sd 2, +2%: the normal approximation asks for 3, which is what did not decide.
  const Comparison c = compare(std::vector<double>{98, 100, 102}, std::vector<double>{100, 102, 104}, Better::higher);
  REQUIRE(c.verdict == Verdict::inconclusive);
  CHECK(c.repetitions_needed == 4);
  CHECK_THAT(c.reason, Catch::EndsWith("about 4 repetitions each would tell"));
  // Too few on one side: never fewer than the other side already has.
  const Comparison few = compare(std::vector<double>{1, 2, 3, 4, 5, 6, 7}, std::vector<double>{2, 3}, Better::higher);
  CHECK(few.verdict == Verdict::inconclusive);
  CHECK(few.repetitions_needed >= 7);
  // A baseline mean of 0: a relative change has no scale, and more runs cannot give it one.
  const Comparison zero = compare(std::vector<double>{-1, 1, -2, 2}, std::vector<double>{-1.5, 1, -2, 2.5}, Better::higher);
  CHECK(zero.verdict == Verdict::inconclusive);
  CHECK(zero.repetitions_needed == 0);
  CHECK_THAT(zero.reason, Catch::Contains("more repetitions cannot tell"));
}

TEST_CASE("seeded: the change's interval excludes 0 exactly when the test is significant, at any alpha") {
  std::mt19937 rng(20261126);
  std::normal_distribution<double> noise(0, 1);
  for (double alpha : {0.05, 0.01, 0.2}) {
    CompareOptions o;
    o.alpha = alpha;
    int significant = 0;
    for (int trial = 0; trial < 2000; ++trial) {
      const double shift = 0.02 * (trial % 7);
      std::vector<double> a, b;
      for (int i = 0; i < 3 + trial % 5; ++i) a.push_back(100 + 3 * noise(rng));
      for (int i = 0; i < 3 + trial % 4; ++i) b.push_back(100 * (1 + shift) + 3 * noise(rng));
      const Comparison c = compare(a, b, Better::higher, o);
      const bool excludes_zero = c.relative_low > 0 || c.relative_high < 0;
      INFO("alpha " << alpha << " trial " << trial << " p " << c.welch.p << " [" << c.relative_low << ", " << c.relative_high << "]");
      REQUIRE(excludes_zero == (c.welch.p < alpha));
      significant += c.welch.p < alpha;
    }
    CHECK(significant > 200);  // both sides of the rule were met
    CHECK(significant < 1800);
  }
}

TEST_CASE("seeded null: samples of one distribution are called regressed or improved at most about alpha of the time") {
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(100, 5);
  int alarms = 0;
  constexpr int kTrials = 4000;
  for (int trial = 0; trial < kTrials; ++trial) {
    std::vector<double> a(5), b(5);
    for (auto& x : a) x = noise(rng);
    for (auto& x : b) x = noise(rng);
    const Verdict v = compare(a, b, Better::higher).verdict;
    alarms += v == Verdict::regressed || v == Verdict::improved;
  }
  // alpha = 0.05; the binomial's sd over 4000 trials is 0.0034, so 0.06 is about 3 sd above it.
  CHECK(static_cast<double>(alarms) / kTrials < 0.06);
  CHECK(alarms > 0);  // the test can fire at all
}
