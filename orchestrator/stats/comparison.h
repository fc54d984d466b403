#pragma once
// The verdict on a metric of one point in two campaigns (or two points): improved, regressed,
// unchanged or inconclusive, with the evidence. Pure. The rules, in order (docs/statistics.md):
//
//  1. Fewer than `min_repetitions` values on either side: inconclusive.
//  2. The same values on both sides, bit for bit in any order: unchanged (a deterministic metric, or
//     the same seeds: there is nothing to test).
//  3. Welch's p < alpha and |relative change| > threshold: improved or regressed by the metric's
//     direction ("changed" for a metric without one).
//  4. Welch's p < alpha but |relative change| <= threshold: unchanged (significant, but below the
//     threshold that matters).
//  5. Not significant, and the confidence interval of the relative change lies within ±tolerance
//     (tolerance = max(threshold, options.tolerance)): unchanged, since a change of that size would
//     have shown.
//  6. Otherwise inconclusive: the samples are too few or too noisy to tell. `repetitions_needed` says
//     how many repetitions per side would detect a change of `tolerance` with the given power: never
//     fewer than a side already has (more than that when both had enough and still did not decide),
//     and 0 when more runs cannot tell (a baseline mean of 0, or no spread on either side).
//
// The relative change is (mean_c - mean_b)/|mean_b|. Its interval is Welch's interval of the difference
// at the test's level (1 - alpha) over |mean_b|: one method for the interval and the test, so the
// interval excludes 0 exactly when Welch's p < alpha (before any correction for many comparisons, which
// the verdict's reason then names).
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "stats/summary.h"
#include "stats/tests.h"

namespace sweep::stats {

enum class Better { higher, lower, none };
enum class Verdict { improved, regressed, unchanged, changed, inconclusive };
std::string_view name_of(Verdict verdict);
/// "higher", "lower" or "" (none); anything else is nullopt-like: returns false.
bool parse_better(std::string_view text, Better& out);

/// How the p-values of a family of comparisons are adjusted together (stats/multiple.h).
enum class Correction {
  holm,  // Holm's step-down (1979): controls the family-wise error rate (any false verdict) at alpha
  bh,    // Benjamini–Hochberg step-up (1995): controls the false discovery rate at alpha
  none,  // each comparison on its own
};

struct CompareOptions {
  double alpha = 0.05;
  double threshold = 0.0;   // relative change below which a significant change does not count
  double tolerance = 0.05;  // the smallest relative change "unchanged" must rule out
  double confidence = 0.95;  // of each side's summary; the change's interval is at 1 - alpha
  double power = 0.8;       // for repetitions_needed
  std::size_t min_repetitions = 3;
  Correction correction = Correction::holm;  // for a family (report::compare_campaigns); compare() tests one pair
};

struct Comparison {
  Summary baseline, candidate;
  double relative = 0;                  // (mean_c - mean_b) / |mean_b|; 0 when mean_b is 0
  double relative_low = 0, relative_high = 0;
  Welch welch;
  MannWhitney mann_whitney;
  double effect_size = 0;               // Hedges' g
  double p_adjusted = 0;                // the p the verdict used: Welch's, or adjusted for multiplicity (stats/multiple.h)
  double threshold = 0;                 // the threshold the verdict used (options.threshold when compared)
  Verdict verdict = Verdict::inconclusive;
  std::string reason;                   // one line: why this verdict
  std::size_t repetitions_needed = 0;   // set when inconclusive; 0 there: more runs cannot tell
  bool identical = false;               // both samples hold the same values (rule 2)
};

Comparison compare(std::span<const double> baseline, std::span<const double> candidate, Better better,
                   const CompareOptions& options = {});

/// Sets c.verdict, reason and repetitions_needed by the rules above, deciding significance with `p`
/// (Welch's p, or one adjusted for multiplicity) instead of c.welch.p.
void judge(Comparison& c, Better better, const CompareOptions& options, double p);

}  // namespace sweep::stats
