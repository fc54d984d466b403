// stats/multiple.h: adjusted p-values (checked against R's p.adjust) and a gate that does not cry
// wolf: a seeded family of 200 point-metric pairs drawn from the same distributions.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "stats/multiple.h"

using namespace sweep::stats;

TEST_CASE("Holm and Benjamini-Hochberg adjust as R's p.adjust does, in the input order") {
  const std::vector<double> p{0.01, 0.04, 0.03, 0.005};
  // R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") and "BH"
  const std::vector<double> holm{0.03, 0.06, 0.06, 0.02}, bh{0.02, 0.04, 0.04, 0.02};
  const auto h = adjust(p, Correction::holm), b = adjust(p, Correction::bh);
  for (std::size_t i = 0; i < p.size(); ++i) {
    CHECK(h[i] == Approx(holm[i]));
    CHECK(b[i] == Approx(bh[i]));
  }
  CHECK(adjust(p, Correction::none) == p);
  CHECK(adjust(std::vector<double>{0.5, 0.9, NAN}, Correction::holm) == std::vector<double>{1.0, 1.0, 1.0});
  CHECK(adjust(std::vector<double>{}, Correction::bh).empty());
  CHECK(parse_correction("bh") == Correction::bh);
  CHECK(!parse_correction("bonferroni"));
  CHECK(name_of(Correction::holm) == "holm");
}

namespace {

/// 200 pairs of 8 repetitions each, every one drawn from N(100, 2) on both sides (CV 2%), except the
/// candidate of pair 117, drawn from N(90, 2): a planted 10% drop of a higher-is-better metric.
std::vector<Comparison> family(Correction c, std::size_t& regressed, std::size_t& improved, bool& planted_found) {
  std::mt19937 rng(20261125);
  std::normal_distribution<double> same(100, 2), dropped(90, 2);
  CompareOptions o;
  o.correction = c;
  std::vector<Comparison> out;
  for (int pair = 0; pair < 200; ++pair) {
    std::vector<double> b, k;
    for (int i = 0; i < 8; ++i) b.push_back(same(rng));
    for (int i = 0; i < 8; ++i) k.push_back(pair == 117 ? dropped(rng) : same(rng));
    out.push_back(compare(b, k, Better::higher, o));
  }
  const std::vector<Better> better(out.size(), Better::higher);
  correct(out, better, o);
  regressed = improved = 0;
  for (const auto& x : out) {
    regressed += x.verdict == Verdict::regressed;
    improved += x.verdict == Verdict::improved;
  }
  planted_found = out[117].verdict == Verdict::regressed;
  return out;
}

}  // namespace

TEST_CASE("200 pairs from the same distributions: uncorrected verdicts cry wolf, Holm and BH keep only the planted drop") {
  std::size_t regressed = 0, improved = 0;
  bool planted = false;
  family(Correction::none, regressed, improved, planted);
  CHECK(planted);
  CHECK(regressed + improved > 1);  // chance alone: about 5% of 199 unchanged pairs
  const auto holm = family(Correction::holm, regressed, improved, planted);
  CHECK(planted);
  CHECK(regressed == 1);
  CHECK(improved == 0);
  CHECK(holm[117].p_adjusted < 0.05);
  CHECK(holm[117].reason.find("adjusted") != std::string::npos);
  family(Correction::bh, regressed, improved, planted);
  CHECK(planted);
  CHECK(regressed == 1);
  CHECK(improved == 0);
}
