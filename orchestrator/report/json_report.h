#pragma once
// The report as JSON, format version kJsonReportVersion (7; docs/reports.md), for scripts and notebooks: the campaign's provenance, every
// point with its parameters and, per metric, the statistics of its succeeded runs (n, mean, sd, CV,
// 95% CI, median, quartiles, min, max, flagged outliers and the per-run values), the failed runs, and
// (since version 2) the change points of the report's history with the method that found them, and
// (since version 3) the report's tables as shown: each cell's mean, sd, 95% CI and n in its column's
// unit, after the column's conversion and scale (the points' metrics stay in the metrics' own units),
// (since version 4) the hardware of the runs' latest attempts, (since version 5) the gate's "verdict"
// (report/gate_verdict.h) first, where a gate judged the campaign (sweep nightly), else null, and (since
// version 6) the GPU and NCCL values of "hardware" over only the runs that asked for GPUs, with
// "gpus_requested", and (since version 7) "forecast": the forecast against actual (report/forecast_actual.h),
// null for a campaign without forecast rows.
// Non-finite numbers are null. Pure.
#include <string>
#include <vector>

#include "report/campaign_data.h"
#include "report/history.h"
#include "report/table.h"

namespace sweep::report {

inline constexpr int kJsonReportVersion = 7;

/// `change_points`: those of the report's history (report/history.h); empty without a history.
/// `tables`: the report's tables, in the order the other formats show them.
std::string json_report(const CampaignData& data, const std::vector<PointResult>& results,
                        const std::vector<HistoryChangePoint>& change_points = {}, const std::vector<Table>& tables = {},
                        const std::string& verdict_json = "null");

}  // namespace sweep::report
