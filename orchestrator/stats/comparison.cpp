#include "stats/comparison.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "stats/distributions.h"

namespace sweep::stats {
namespace {

constexpr std::array<std::pair<Verdict, std::string_view>, 5> kVerdicts{{{Verdict::improved, "improved"},
                                                                         {Verdict::regressed, "regressed"},
                                                                         {Verdict::unchanged, "unchanged"},
                                                                         {Verdict::changed, "changed"},
                                                                         {Verdict::inconclusive, "inconclusive"}}};

// The interval of the relative change (see comparison.h): Welch's interval of the difference over
// |mean_b|, so it excludes 0 exactly when Welch's test is significant at the same level.
std::pair<double, double> relative_interval(const Summary& b, const Welch& w) {
  const double base = std::fabs(b.mean);
  if (base == 0) return {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  return {w.diff_low / base, w.diff_high / base};
}

// Repetitions per side for a two-sided test at `alpha` to detect a change of `tolerance`·|mean_b|
// with `power`, from the pooled standard deviation (normal approximation); never fewer than either side
// already has, and more than that when what both have did not decide (`undecided`). 0 when more runs
// cannot tell: the baseline's mean is 0 (a relative change has no scale) or neither side varies.
std::size_t repetitions_for(const Summary& b, const Summary& c, const CompareOptions& o, double tolerance, bool undecided) {
  const double sd = std::sqrt((b.sd * b.sd + c.sd * c.sd) / 2), delta = tolerance * std::fabs(b.mean);
  if (delta == 0 || sd == 0) return 0;
  const double z = normal_quantile(1 - o.alpha / 2) + normal_quantile(o.power);
  const double n = std::min(std::ceil(2 * (z * sd / delta) * (z * sd / delta)), 1e12);  // no overflow in the cast
  const std::size_t have = std::max(b.n, c.n) + (undecided ? 1 : 0);
  return std::max({o.min_repetitions, have, static_cast<std::size_t>(n)});
}

/// The hint of an inconclusive verdict: how many repetitions would tell, or that more cannot.
std::string hint_of(std::size_t needed) {
  return needed == 0 ? "more repetitions cannot tell (the baseline's mean is 0, or neither side varies)"
                     : fmt::format("about {} repetitions each would tell", needed);
}

/// Whether the two samples hold the same values (bit for bit), in any order.
bool same_values(std::span<const double> a, std::span<const double> b) {
  if (a.size() != b.size()) return false;
  std::vector<double> x(a.begin(), a.end()), y(b.begin(), b.end());
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  return std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0;
}

Verdict direction(double relative, Better better) {
  if (better == Better::none) return Verdict::changed;
  return (relative > 0) == (better == Better::higher) ? Verdict::improved : Verdict::regressed;
}

}  // namespace

std::string_view name_of(Verdict verdict) {
  for (const auto& [v, name] : kVerdicts)
    if (v == verdict) return name;
  return "?";
}

bool parse_better(std::string_view text, Better& out) {
  constexpr std::array<std::pair<std::string_view, Better>, 3> kBetter{
      {{"higher", Better::higher}, {"lower", Better::lower}, {"", Better::none}}};
  for (const auto& [name, b] : kBetter)
    if (name == text) {
      out = b;
      return true;
    }
  return false;
}

Comparison compare(std::span<const double> baseline, std::span<const double> candidate, Better better,
                   const CompareOptions& o) {
  Comparison r;
  r.baseline = summarize(baseline, o.confidence);
  r.candidate = summarize(candidate, o.confidence);
  const Summary &b = r.baseline, &c = r.candidate;
  r.relative = b.mean != 0 ? (c.mean - b.mean) / std::fabs(b.mean) : 0;
  r.welch = welch(b, c, 1 - o.alpha);  // the test's own level: interval and test agree
  r.mann_whitney = mann_whitney(baseline, candidate);
  r.effect_size = hedges_g(b, c);
  std::tie(r.relative_low, r.relative_high) = relative_interval(b, r.welch);
  r.threshold = o.threshold;
  r.identical = same_values(baseline, candidate);
  judge(r, better, o, r.welch.p);
  return r;
}

void judge(Comparison& r, Better better, const CompareOptions& o, double p) {
  const Summary &b = r.baseline, &c = r.candidate;
  const double tolerance = std::max(o.threshold, o.tolerance);
  r.p_adjusted = p;
  r.repetitions_needed = 0;
  if (b.n < o.min_repetitions || c.n < o.min_repetitions) {
    r.verdict = Verdict::inconclusive;
    r.repetitions_needed = std::max({o.min_repetitions, b.n, c.n, repetitions_for(b, c, o, tolerance, false)});
    r.reason = fmt::format("too few repetitions ({} and {}; at least {} each)", b.n, c.n, o.min_repetitions);
    return;
  }
  if (r.identical) {
    r.verdict = Verdict::unchanged;
    r.reason = fmt::format("the {} values of each side are identical", b.n);
    return;
  }
  const bool adjusted = std::isnan(p) ? !std::isnan(r.welch.p) : p != r.welch.p;
  const std::string p_text = adjusted ? fmt::format("p = {:.3g}, adjusted {:.3g}", r.welch.p, p) : fmt::format("p = {:.3g}", p);
  const bool significant = p < o.alpha;
  // Not significant only because of the correction: the interval (unadjusted) may exclude 0, so say why.
  const std::string not_significant =
      r.welch.p < o.alpha ? "significant alone, but not once corrected for the comparisons made together" : "no significant change";
  // From a baseline mean of 0 a change has no relative size (r.relative stays 0 for the writers): any
  // significant change is beyond every threshold, in the direction of the difference.
  const bool from_zero = b.mean == 0 && c.mean != 0;
  if (significant && from_zero) {
    r.verdict = direction(c.mean, better);
    r.reason = fmt::format("from a mean of 0 to {:.4g} ({})", c.mean, p_text);
  } else if (significant && std::fabs(r.relative) > o.threshold) {
    r.verdict = direction(r.relative, better);
    r.reason = fmt::format("{:+.2f}% ({})", 100 * r.relative, p_text);
  } else if (significant) {
    r.verdict = Verdict::unchanged;
    r.reason = fmt::format("{:+.2f}% is significant but within the {:.2f}% threshold", 100 * r.relative, 100 * o.threshold);
  } else if (r.relative_low >= -tolerance && r.relative_high <= tolerance) {
    r.verdict = Verdict::unchanged;
    r.reason = fmt::format("{} ({}); the interval rules out changes beyond ±{:.2f}%", not_significant, p_text,
                           100 * tolerance);
  } else {
    r.verdict = Verdict::inconclusive;
    r.repetitions_needed = repetitions_for(b, c, o, tolerance, true);
    r.reason = fmt::format("{} ({}), but too noisy to rule out ±{:.2f}% (CV {:.1f}% and {:.1f}%): {}", not_significant,
                           p_text, 100 * tolerance, 100 * b.cv, 100 * c.cv, hint_of(r.repetitions_needed));
  }
}

}  // namespace sweep::stats
