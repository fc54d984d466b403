#pragma once
// The efficiency view (report/efficiency.h) as text (`sweep show --efficiency`), JSON (`--format
// json`, show's JSON version, report/campaign_json.h), and the reports' "Efficiency" section in
// Markdown and HTML. Pure.
#include <string>
#include <vector>

#include "report/efficiency.h"

namespace sweep::report {

/// Terminal lines, one block per point (not yet made terminal-safe).
std::string efficiency_text(const std::vector<PointEfficiency>& points);
/// {"version", "campaign", "margin", "points": efficiency_points_json}.
std::string efficiency_json(const std::string& campaign, const std::vector<PointEfficiency>& points);
/// [{point, label, succeeded, timed_out, out_of_memory,
/// time|memory|cpus|gpus: {used: {mean, max, p95, runs, from} | null, requested: {value, text, from} | null,
/// unit}, suggested: {time, mem, basis, escalate: [lines]}}]: also report.json's "efficiency" (report/json_report.h).
std::string efficiency_points_json(const std::vector<PointEfficiency>& points);
/// "## Efficiency" with one table row per point and the suggested `escalate:` blocks.
std::string efficiency_markdown(const std::vector<PointEfficiency>& points);
/// <h2>Efficiency</h2> and the same table.
std::string efficiency_html(const std::vector<PointEfficiency>& points);

}  // namespace sweep::report
