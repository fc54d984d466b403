#pragma once
// The report as JSON, format version kJsonReportVersion (8; docs/reports.md), for scripts and notebooks: the campaign's provenance, every
// point with its parameters and, per metric, the statistics of its succeeded runs (n, mean, sd, CV,
// 95% CI, median, quartiles, min, max, flagged outliers and the per-run values), the failed runs, and
// (since version 2) the change points of the report's history with the method that found them, and
// (since version 3) the report's tables as shown: each cell's mean, sd, 95% CI and n in its column's
// unit, after the column's conversion and scale (the points' metrics stay in the metrics' own units),
// (since version 4) the hardware of the runs' latest attempts, (since version 5) the gate's "verdict"
// (report/gate_verdict.h) first, where a gate judged the campaign (sweep nightly), else null, and (since
// version 6) the GPU and NCCL values of "hardware" over only the runs that asked for GPUs, with
// "gpus_requested", and (since version 7) "forecast": the forecast against actual (report/forecast_actual.h),
// null for a campaign without forecast rows, and (since version 8) "efficiency" (report/efficiency_render.h's
// efficiency_points_json), "energy" (report/energy_per_step.h's energy_json) and "timelines"
// (report/timelines.h's timelines_json), each null where report.html has no such section.
// Non-finite numbers are null. Pure.
#include <string>
#include <vector>

#include "report/campaign_data.h"
#include "report/history.h"
#include "report/table.h"
#include "report/timelines.h"

namespace sweep::report {

inline constexpr int kJsonReportVersion = 8;

/// `change_points`: those of the report's history (report/history.h); empty without a history.
/// `tables`: the report's tables, in the order the other formats show them. `results`: with the model's
/// predicted metrics added, as the energy lines of the other formats read them. `timelines`: those the
/// HTML report draws (report/timelines.h: read by the shell), none by default.
std::string json_report(const CampaignData& data, const std::vector<PointResult>& results,
                        const std::vector<HistoryChangePoint>& change_points = {}, const std::vector<Table>& tables = {},
                        const std::string& verdict_json = "null", const Timelines& timelines = {});

}  // namespace sweep::report
