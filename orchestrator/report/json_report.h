#pragma once
// The report as JSON, format version 2, for scripts and notebooks: the campaign's provenance, every
// point with its parameters and, per metric, the statistics of its succeeded runs (n, mean, sd, CV,
// 95% CI, median, quartiles, min, max, flagged outliers and the per-run values), the failed runs, and
// (since version 2) the change points of the report's history with the method that found them.
// Non-finite numbers are null. Pure.
#include <string>
#include <vector>

#include "report/campaign_data.h"
#include "report/history.h"

namespace sweep::report {

inline constexpr int kJsonReportVersion = 2;

/// `change_points`: those of the report's history (report/history.h); empty without a history.
std::string json_report(const CampaignData& data, const std::vector<PointResult>& results,
                        const std::vector<HistoryChangePoint>& change_points = {});

}  // namespace sweep::report
