#pragma once
// `sweep compare`: two campaigns matched point by point (report/point_identity.h), each metric both have
// given a verdict (stats/comparison.h), what the baseline had and the candidate lacks given the verdict
// `missing`, and the renderings: a text table, JSON (versioned) and JUnit XML for CI systems. Pure.
#include <string>
#include <vector>

#include "report/campaign_data.h"
#include "report/provenance_changes.h"
#include "spec/experiment.h"
#include "stats/comparison.h"

namespace sweep::report {

struct ComparisonRow {
  std::string point;   // "batch=8 nodes=2": the point's parameters
  std::string point_id;
  std::string metric, unit, better;
  stats::Comparison result;
};

/// A baseline point x metric with succeeded runs that meets no candidate point x metric with succeeded
/// runs: a verdict of its own, which fails every gate.
struct MissingRow {
  std::string point;   // the baseline point's parameters
  std::string metric;
  std::string reason;  // "the point is absent from the candidate", "its 3 runs failed: ...", "never produced ..."
};

/// What a comparison says as a gate, in order of precedence (docs/nightly.md#exit-codes).
enum class Gate {
  incomparable,  // something the baseline had is missing, or nothing was compared at all
  regressed,     // a metric regressed
  undecided,     // every comparison was inconclusive
  passed,        // what was compared was decided, and nothing regressed
};
std::string_view name_of(Gate g);
/// Why a comparison without rows compared nothing (its text, JUnit and nightly's summary say it).
inline constexpr const char* kNothingCompared = "no point x metric has succeeded runs on both sides";

/// How points are matched: the user's renames of the baseline's parameters (--map old=new), and whether
/// campaigns whose points differ (another experiment, an axis renamed, a value changed) are compared by
/// what lines up (--allow-different) instead of refused.
struct PointMatching {
  std::vector<std::pair<std::string, std::string>> map;
  bool allow_different = false;
};

struct CampaignComparison {
  std::string baseline, candidate;  // labels
  stats::Correction correction = stats::Correction::holm;  // how the rows' p-values were adjusted together
  double alpha = 0.05;              // the test's level; the change's interval is at 1 - alpha
  std::vector<MissingRow> missing;  // point order, then metric name
  std::vector<ComparisonRow> rows;  // point order, then metric name; verdicts judged with adjusted p
  std::vector<std::string> only_in_baseline, only_in_candidate;  // points without a partner
  std::vector<std::string> matched_by;   // the parameters that tell points apart
  std::vector<std::string> ignored;      // one-valued parameters left out of matching
  std::vector<std::string> differences;  // accepted with --allow-different
  std::vector<ProvenanceChange> changed; // provenance facts that differ (the image, the runtime, ...)
  std::string baseline_system, candidate_system;  // each side's campaigns.system (docs/forecasts.md)
  std::size_t count(stats::Verdict v) const;
  Gate gate() const;
};

/// `metrics` empty: every metric both campaigns have. Every point x metric is one family whose
/// p-values are adjusted together by options.correction (stats/multiple.h). With `metric_thresholds`,
/// a metric is judged with the candidate experiment's `thresholds:` entry, else `site_thresholds`'
/// (the site file's), its expression evaluated at each point, else options.threshold; without,
/// options.threshold is used for all (the user gave --threshold). Error(usage) names a requested
/// metric that neither has; Error(invalid_experiment) a threshold that is not a number from 0 to 10;
/// Error(incomparable) campaigns of different experiments or whose points differ (align()), naming what
/// differs, unless `matching.allow_different`.
CampaignComparison compare_campaigns(const CampaignData& baseline, const CampaignData& candidate,
                                     const std::vector<std::string>& metrics, const stats::CompareOptions& options,
                                     bool metric_thresholds = true,
                                     const std::vector<spec::MetricThreshold>& site_thresholds = {},
                                     const PointMatching& matching = {});

/// 2: "correction", and each row's "welch_p_adjusted" and "threshold" (the p and threshold its verdict used).
/// 3: "gate", "missing" (the rows of verdict missing), "matched_by", "ignored" and "differences".
/// 4: "changed" (the provenance facts that differ: report/provenance_changes.h).
inline constexpr int kComparisonJsonVersion = 5;
std::string comparison_text(const CampaignComparison& c);   // aligned columns, "changed: ..." lines, then a one-line summary
std::string comparison_json(const CampaignComparison& c);
std::string comparison_junit(const CampaignComparison& c);  // a testcase per row; missing and regressed rows fail; a "changed" property per changed fact
/// "2 regressed, 1 missing, ...": the counts per verdict, missing first.
std::string verdict_counts(const CampaignComparison& c);

}  // namespace sweep::report
