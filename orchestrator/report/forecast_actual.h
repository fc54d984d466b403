#pragma once
// The forecast against what the campaign used (docs/forecasts.md, "Forecast against actual"): per point
// of a campaign with forecast rows (campaign_forecasts, stored by `sweep run`), the expected and upper
// duration of one run and their source, the median wall time of its runs, and GPU-hours forecast and
// used; and the totals. Pure over the campaign's data; rendered as Markdown, HTML and report.json's
// `forecast`.
#include <optional>
#include <string>
#include <vector>

#include "report/campaign_data.h"

namespace sweep::report {

struct ForecastActualRow {
  std::string point_id;
  std::string label;  // "n=2"; the id when the point has no parameters
  store::ForecastRecord forecast;
  std::size_t ended = 0;                   // runs that ended with a wall time (succeeded or failed)
  std::optional<double> median_elapsed_s = {};  // of those runs
  double gpu_hours_expected = 0;           // forecast: runs x GPUs x expected
  double gpu_hours_upper = 0;
  double gpu_hours_used = 0;               // the ended runs' elapsed x GPUs
};

struct ForecastActual {
  std::vector<ForecastActualRow> rows;  // in point order; empty: the campaign has no forecast
  double gpu_hours_expected = 0, gpu_hours_upper = 0, gpu_hours_used = 0;
  std::size_t unknown = 0;  // points the forecast had no duration for
};

/// The comparison of `data.forecast` with `data.runs`.
ForecastActual forecast_actual(const CampaignData& data);

/// "## Forecast against actual" and its table; "" without forecast rows.
std::string forecast_actual_markdown(const ForecastActual& f);
/// The same as an HTML section; "" without forecast rows.
std::string forecast_actual_html(const ForecastActual& f);
/// report.json's `forecast`: {"points": [...], "totals": {...}}, or null without forecast rows.
std::string forecast_actual_json(const ForecastActual& f);

}  // namespace sweep::report
