#pragma once
// A report's join (spec::ReportJoin, docs/reports.md#joins): tables and figures over the points of
// another campaign, with some of this campaign's metrics carried to them. Seed 000 needs it: its
// recalculated training times take the all-reduce time from the e16 campaign and the training times
// from the e15 campaign.
#include <optional>
#include <string>
#include <vector>

#include "model/interconnect.h"
#include "report/campaign_data.h"
#include "report/figure.h"
#include "report/table.h"
#include "spec/report_spec.h"

namespace sweep::store {
class Store;
}

namespace sweep::report {

/// Carries `join.metrics` from the points of `here` to the points of `there` whose `join.on`
/// parameters equal theirs: the per-run values times the scale, summarised again, under the new name
/// and unit. A point of `there` that no point of `here` matches gets nothing. Error(invalid_experiment)
/// at the join for an `on` parameter either side lacks, a metric `here` lacks, a name `there` already
/// has, or a point of `there` that several points of `here` match. Pure.
void carry_metrics(const PointsView& here, std::vector<PointResult>& there, const spec::ReportJoin& join);

/// What a join adds to a report.
struct JoinedParts {
  std::string label;  // the joined campaign
  std::vector<Table> tables;
  std::vector<FigureText> figures;  // empty unless asked for
};

/// Joins the campaign labelled `label` (Error(not_found) when there is none) or, with `label` empty,
/// the latest campaign of `join.experiment`; nullopt when the database has none. Carries the metrics,
/// evaluates the join's model (with the site's `interconnects` added) and builds its tables (and
/// figures, when `figures`).
std::optional<JoinedParts> joined_parts(const store::Store& db, const PointsView& here,
                                        const spec::ReportJoin& join, const std::string& label, bool figures,
                                        const std::vector<model::Interconnect>& interconnects = {});

}  // namespace sweep::report
