#pragma once
// The history of a series of campaigns, such as the nightly ones (nightly-2026-01-01,
// nightly-2026-01-02, ...): per metric, one line per night holding every point's mean and interval,
// and a trend figure of the metric against the night (docs/nightly.md#history). write_report adds them
// to a campaign's report when asked (ReportRequest::history).
#include <deque>
#include <string>
#include <vector>

#include "report/campaign_data.h"
#include "report/figure.h"
#include "report/table.h"

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
  std::vector<std::string> nights;        // labels, oldest first
  std::deque<store::PointRecord> points;  // stable addresses: results point into it
  std::vector<PointResult> results;       // night by night, in each night's point order
  std::vector<std::string> metrics;       // shown, sorted
};

/// Reads the campaigns `request` selects, keeping only the requested metrics. Error(usage) for a
/// requested metric that no night has; an empty History when no label has the prefix.
History load_history(const store::Store& db, const HistoryRequest& request);

/// Per metric: a table named history-<metric> with one row per night and one column per point (by the
/// parameters that vary between the points having the metric). Pure.
std::vector<Table> history_tables(const History& history);

/// Per metric: the figure trend-<metric>, the metric's mean and 95% interval against the night, one
/// line per point. Pure.
std::vector<FigureText> trend_figures(const History& history, const std::string& campaign);

}  // namespace sweep::report
