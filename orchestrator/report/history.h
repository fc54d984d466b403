#pragma once
// The history of a series of campaigns, such as the nightly ones (nightly-2026-01-01,
// nightly-2026-01-02, ...): per metric, one line per night holding every point's mean and interval,
// a trend figure of the metric against the night, and the change points of each point's series of
// means (stats/change_points.h; docs/nightly.md#history). write_report adds them to a campaign's
// report when asked (ReportRequest::history).
#include <deque>
#include <string>
#include <vector>

#include "report/campaign_data.h"
#include "report/figure.h"
#include "report/table.h"
#include "stats/change_points.h"

namespace sweep::store {
class Store;
}

namespace sweep::report {

struct HistoryRequest {
  std::string prefix;                // the campaigns whose labels start with this,
  std::string rest;                  // whose labels' rest matches this regex ("" = any),
  std::string until;                 // ...and sort at or before this label ("" = no bound),
  std::size_t nights = 30;           // the latest this many of them
  std::vector<std::string> metrics;  // the metrics shown; empty = every metric
};

/// The nights' points as one campaign's: each point of each night becomes a point whose parameters
/// are `night` (the label without the prefix) and then the point's own.
struct History {
  std::string prefix;                     // of the labels: a night is a label without it
  std::vector<std::string> nights;        // labels, oldest first
  std::deque<store::PointRecord> points;  // stable addresses: results point into it
  std::vector<PointResult> results;       // night by night, in each night's point order
  std::vector<std::string> metrics;       // shown, sorted
  bool several_systems = false;           // nights of more than one system (campaigns.system): a `system` row key
};

/// Reads the campaigns `request` selects, keeping only the requested metrics. Error(usage) for a
/// requested metric that no night has; an empty History when no label has the prefix.
History load_history(const store::Store& db, const HistoryRequest& request);

/// Per metric: a table named history-<metric> with one row per night and one column per point (by the
/// parameters that vary between the points having the metric); where the nights come from more than one
/// system (an imported bundle's among them), each row also names the night's system. Pure.
std::vector<Table> history_tables(const History& history);

/// Where one point's series of a metric over the nights shifts for good (stats/change_points.h).
struct HistoryChangePoint {
  std::string metric;
  std::string point;     // the parameters that tell it apart ("size=1M"); "" when one point has the metric
  std::string night;     // the first night of the new level (its label without the prefix)
  std::string campaign;  // and its label
  stats::ChangePoint change;
};

/// Per metric (in history.metrics' order) and point: the change points of the series of the nights'
/// means, by night; a night where the point has no succeeded run is left out of its series. Pure.
std::vector<HistoryChangePoint> history_change_points(const History& history,
                                                      const stats::ChangePointOptions& options = {});

/// The table change-points: one row per change point (metric, point, night, means before and after,
/// relative change, p). Pure.
Table change_point_table(const std::vector<HistoryChangePoint>& changes);

/// Per metric: the figure trend-<metric>, the metric's mean and 95% interval against the night, one
/// line per point, and a dashed line at each night where a change point of the metric begins. Pure.
std::vector<FigureText> trend_figures(const History& history, const std::string& campaign,
                                      const std::vector<HistoryChangePoint>& changes = {});

}  // namespace sweep::report
