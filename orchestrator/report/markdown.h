#pragma once
// Markdown rendering of report tables. Pure.
#include <string>
#include <vector>

#include "report/campaign_data.h"
#include "report/table.h"

namespace sweep::report {

/// A GitHub-flavoured Markdown table; a per-metric table gets a "### metric (unit)" heading.
/// Pipes in values are escaped.
std::string markdown_table(const Table& table);

/// The whole Markdown report: a heading with the campaign's label, experiment, times and run counts,
/// then every table, then the failed runs with their reasons.
/// `lead` (Markdown) comes right after the heading: a gate's verdict.
std::string markdown_report(const CampaignData& data, const std::vector<Table>& tables, const std::string& lead = "");

}  // namespace sweep::report
