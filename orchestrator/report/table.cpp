#include "report/table.h"

#include <fmt/core.h>

#include <algorithm>
#include <iterator>

#include "telemetry/run_metrics.h"
#include "util/error.h"
#include "util/strings.h"

namespace sweep::report {

std::string metric_unit(const std::string& name, const std::vector<PointResult>& results) {
  for (const auto& r : results)
    if (auto it = r.metrics.find(name); it != r.metrics.end() && !it->second.unit.empty()) return it->second.unit;
  return "";
}

std::string metric_header(const std::string& name, const std::vector<PointResult>& results) {
  const std::string unit = metric_unit(name, results);
  return unit.empty() ? name : fmt::format("{} ({})", name, unit);
}

namespace {

std::vector<std::string> values_of(const store::PointRecord& p, const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& n : names) out.push_back(find_param(p, n) ? find_param(p, n)->value : "");
  return out;
}

/// Index of `key` in `keys`, appending it when new: rows and columns keep first-appearance order.
std::size_t slot(std::vector<std::vector<std::string>>& keys, const std::vector<std::string>& key) {
  const auto it = std::find(keys.begin(), keys.end(), key);
  if (it != keys.end()) return static_cast<std::size_t>(it - keys.begin());
  keys.push_back(key);
  return keys.size() - 1;
}

Table per_point_table(const std::vector<PointResult>& results,
                      const std::vector<std::string>& rows, const std::vector<std::string>& metrics) {
  Table t;
  t.row_names = rows;
  for (const auto& m : metrics) {
    t.columns.push_back(metric_header(m, results));
    t.column_units.push_back(metric_unit(m, results));
  }
  for (std::size_t i = 0; i < results.size(); ++i) {
    t.row_values.push_back(values_of(*results[i].point, rows));
    std::vector<Cell> cells;
    for (const auto& m : metrics) {
      const auto it = results[i].metrics.find(m);
      cells.push_back(it == results[i].metrics.end() ? Cell{} : Cell{true, it->second});
    }
    t.cells.push_back(std::move(cells));
  }
  return t;
}

Table pivot_table(const std::vector<PointResult>& results, const std::vector<std::string>& rows,
                  const std::vector<std::string>& cols, const std::string& metric) {
  Table t;
  t.title = metric;
  t.row_names = rows;
  std::vector<std::vector<std::string>> col_keys;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const std::size_t r = slot(t.row_values, values_of(*results[i].point, rows));
    const std::size_t c = slot(col_keys, values_of(*results[i].point, cols));
    if (t.cells.size() <= r) t.cells.resize(r + 1);
    const auto it = results[i].metrics.find(metric);
    if (it == results[i].metrics.end()) continue;
    t.unit = it->second.unit;
    if (t.cells[r].size() <= c) t.cells[r].resize(c + 1);
    t.cells[r][c] = Cell{true, it->second};
  }
  for (const auto& key : col_keys) t.columns.push_back(pivot_column_header(cols, key));
  t.col_params = cols;
  t.col_values = col_keys;
  t.column_units.assign(t.columns.size(), t.unit);
  for (auto& row : t.cells) row.resize(t.columns.size());
  return t;
}

}  // namespace

std::string pivot_column_header(const std::vector<std::string>& names, const std::vector<std::string>& values) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < names.size() && i < values.size(); ++i) parts.push_back(names[i] + "=" + values[i]);
  return join(parts, ", ");
}

std::vector<Table> build_tables(const PointsView& points, const TableSpec& spec) {
  const std::vector<PointResult>& results = points.results;
  require_known(spec.rows, points.params, "row parameter");
  require_known(spec.cols, points.params, "column parameter");
  require_known(spec.metrics, points.metrics, "metric");
  // Without a metric list, the workload's metrics: sweep's measurements of the runs only when named.
  std::vector<std::string> metrics = spec.metrics;
  if (metrics.empty())
    std::copy_if(points.metrics.begin(), points.metrics.end(), std::back_inserter(metrics),
                 [](const std::string& m) { return !telemetry::is_run_metric(m); });
  if (metrics.empty()) metrics = points.metrics;  // the workload reported none: the measurements are all there is

  std::vector<std::string> rows = spec.rows;
  for (const auto& v : points.varying)
    if (std::find(rows.begin(), rows.end(), v) == rows.end() &&
        std::find(spec.cols.begin(), spec.cols.end(), v) == spec.cols.end())
      rows.push_back(v);

  std::vector<Table> tables;  // (filled by push_back: a braced list would copy the table)
  if (spec.cols.empty()) {
    tables.push_back(per_point_table(results, rows, metrics));
    return tables;
  }
  for (const auto& m : metrics) tables.push_back(pivot_table(results, rows, spec.cols, m));
  return tables;
}

std::string spread_phrase(Spread spread) {
  switch (spread) {
    case Spread::ci95: return "mean ± half-width of the 95% confidence interval";
    case Spread::sd: return "mean ± standard deviation";
    case Spread::none: return "mean";
  }
  return "";
}

double spread_of(const MetricStats& stats, Spread spread) {
  const auto& s = stats.summary;
  if (spread == Spread::none || s.n < 2) return 0;
  return spread == Spread::sd ? s.sd : s.ci_high - s.mean;
}

RoundedValue cell_numbers(const Cell& cell, Spread spread) {
  const auto& s = cell.stats.summary;
  const double uncertainty = cell.stats.exact ? 0 : spread_of(cell.stats, spread);
  RoundedValue out = round_measurement(s.mean, uncertainty, cell.digits);
  if (spread == Spread::none) out.zero_spread = false;
  return out;
}

bool has_zero_spread(const Table& t, Spread spread) {
  for (const auto& row : t.cells)
    for (const auto& cell : row)
      if (cell.present && cell.stats.summary.n > 0 && cell_numbers(cell, spread).zero_spread) return true;
  return false;
}

std::string format_cell(const Cell& cell, Spread spread, bool with_n) {
  if (!cell.present || cell.stats.summary.n == 0) return "–";
  std::string out = plus_minus_text(cell_numbers(cell, spread));
  if (with_n) out += fmt::format(" ({})", cell.stats.summary.n);
  return out;
}

std::string cell_n(const Cell& cell) {
  return cell.present && cell.stats.summary.n > 0 ? std::to_string(cell.stats.summary.n) : "";
}

}  // namespace sweep::report
