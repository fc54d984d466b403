#pragma once
// `sweep compare`: two campaigns matched point by point (by point id), each metric both have given a
// verdict (stats/comparison.h), and the renderings: a text table, Markdown, JSON (versioned) and
// JUnit XML for CI systems. Pure.
#include <string>
#include <vector>

#include "report/campaign_data.h"
#include "spec/experiment.h"
#include "stats/comparison.h"

namespace sweep::report {

struct ComparisonRow {
  std::string point;   // "batch=8 nodes=2": the point's parameters
  std::string point_id;
  std::string metric, unit, better;
  stats::Comparison result;
};

struct CampaignComparison {
  std::string baseline, candidate;  // labels
  stats::Correction correction = stats::Correction::holm;  // how the rows' p-values were adjusted together
  std::vector<ComparisonRow> rows;  // point order, then metric name; verdicts judged with adjusted p
  std::vector<std::string> only_in_baseline, only_in_candidate;  // points without a partner
  std::size_t count(stats::Verdict v) const;
};

/// `metrics` empty: every metric both campaigns have. Every point x metric is one family whose
/// p-values are adjusted together by options.correction (stats/multiple.h). With `metric_thresholds`,
/// a metric is judged with the candidate experiment's `thresholds:` entry, else `site_thresholds`'
/// (the site file's), its expression evaluated at each point, else options.threshold; without,
/// options.threshold is used for all (the user gave --threshold). Error(usage) names a requested
/// metric that neither has; Error(invalid_experiment) a threshold that is not a number from 0 to 10.
CampaignComparison compare_campaigns(const CampaignData& baseline, const CampaignData& candidate,
                                     const std::vector<std::string>& metrics, const stats::CompareOptions& options,
                                     bool metric_thresholds = true,
                                     const std::vector<spec::MetricThreshold>& site_thresholds = {});

/// 2: "correction", and each row's "welch_p_adjusted" and "threshold" (the p and threshold its verdict used).
inline constexpr int kComparisonJsonVersion = 2;
std::string comparison_text(const CampaignComparison& c);   // aligned columns, then a one-line summary
std::string comparison_json(const CampaignComparison& c);
std::string comparison_junit(const CampaignComparison& c);  // a testcase per row; regressed rows fail

}  // namespace sweep::report
