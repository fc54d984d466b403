#include "report/table.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "util/error.h"
#include "util/strings.h"

namespace sweep::report {
namespace {

const store::ParamRecord* find_param(const store::PointRecord& p, const std::string& name) {
  for (const auto& pr : p.params)
    if (pr.name == name) return &pr;
  return nullptr;
}

/// Parameter names in schema order, and those (non-derived) that take more than one value.
struct ParamInfo {
  std::vector<std::string> all;
  std::vector<std::string> varying;
};

ParamInfo param_info(const CampaignData& data) {
  ParamInfo info;
  if (data.points.empty()) return info;
  for (const auto& pr : data.points.front().params) {
    info.all.push_back(pr.name);
    if (pr.derived) continue;
    std::set<std::string> values;
    for (const auto& p : data.points)
      if (const auto* v = find_param(p, pr.name)) values.insert(v->value);
    if (values.size() > 1) info.varying.push_back(pr.name);
  }
  if (info.varying.empty())
    for (const auto& pr : data.points.front().params)
      if (!pr.derived) info.varying.push_back(pr.name);
  return info;
}

void require_known(const std::vector<std::string>& names, const std::vector<std::string>& known, const char* what) {
  for (const auto& n : names)
    if (std::find(known.begin(), known.end(), n) == known.end())
      throw Error(ErrorKind::usage, fmt::format("unknown {} \"{}\"{} (available: {})", what, n, did_you_mean(n, known),
                                                join(known, ", ")));
}

std::vector<std::string> values_of(const store::PointRecord& p, const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& n : names) out.push_back(find_param(p, n) ? find_param(p, n)->value : "");
  return out;
}

std::string column_label(const std::vector<std::string>& names, const std::vector<std::string>& values) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < names.size(); ++i) parts.push_back(names[i] + "=" + values[i]);
  return join(parts, ", ");
}

/// Index of `key` in `keys`, appending it when new: rows and columns keep first-appearance order.
std::size_t slot(std::vector<std::vector<std::string>>& keys, const std::vector<std::string>& key) {
  const auto it = std::find(keys.begin(), keys.end(), key);
  if (it != keys.end()) return static_cast<std::size_t>(it - keys.begin());
  keys.push_back(key);
  return keys.size() - 1;
}

std::string metric_header(const std::string& name, const std::vector<PointResult>& results) {
  for (const auto& r : results)
    if (auto it = r.metrics.find(name); it != r.metrics.end() && !it->second.unit.empty())
      return fmt::format("{} ({})", name, it->second.unit);
  return name;
}

Table per_point_table(const CampaignData& data, const std::vector<PointResult>& results,
                      const std::vector<std::string>& rows, const std::vector<std::string>& metrics) {
  Table t;
  t.row_names = rows;
  for (const auto& m : metrics) t.columns.push_back(metric_header(m, results));
  for (std::size_t i = 0; i < data.points.size(); ++i) {
    t.row_values.push_back(values_of(data.points[i], rows));
    std::vector<Cell> cells;
    for (const auto& m : metrics) {
      const auto it = results[i].metrics.find(m);
      cells.push_back(it == results[i].metrics.end() ? Cell{} : Cell{true, it->second});
    }
    t.cells.push_back(std::move(cells));
  }
  return t;
}

Table pivot_table(const CampaignData& data, const std::vector<PointResult>& results, const std::vector<std::string>& rows,
                  const std::vector<std::string>& cols, const std::string& metric) {
  Table t;
  t.title = metric;
  t.row_names = rows;
  std::vector<std::vector<std::string>> col_keys;
  for (std::size_t i = 0; i < data.points.size(); ++i) {
    const std::size_t r = slot(t.row_values, values_of(data.points[i], rows));
    const std::size_t c = slot(col_keys, values_of(data.points[i], cols));
    if (t.cells.size() <= r) t.cells.resize(r + 1);
    const auto it = results[i].metrics.find(metric);
    if (it == results[i].metrics.end()) continue;
    t.unit = it->second.unit;
    if (t.cells[r].size() <= c) t.cells[r].resize(c + 1);
    t.cells[r][c] = Cell{true, it->second};
  }
  for (const auto& key : col_keys) t.columns.push_back(column_label(cols, key));
  for (auto& row : t.cells) row.resize(t.columns.size());
  return t;
}

}  // namespace

std::vector<Table> build_tables(const CampaignData& data, const std::vector<PointResult>& results,
                                const TableSpec& spec) {
  const ParamInfo info = param_info(data);
  require_known(spec.rows, info.all, "row parameter");
  require_known(spec.cols, info.all, "column parameter");
  const std::vector<std::string> all_metrics = metric_names(data);
  require_known(spec.metrics, all_metrics, "metric");
  const std::vector<std::string>& metrics = spec.metrics.empty() ? all_metrics : spec.metrics;

  std::vector<std::string> rows = spec.rows;
  for (const auto& v : info.varying)
    if (std::find(rows.begin(), rows.end(), v) == rows.end() &&
        std::find(spec.cols.begin(), spec.cols.end(), v) == spec.cols.end())
      rows.push_back(v);

  if (spec.cols.empty()) return {per_point_table(data, results, rows, metrics)};
  std::vector<Table> tables;
  for (const auto& m : metrics) tables.push_back(pivot_table(data, results, rows, spec.cols, m));
  return tables;
}

std::string format_number(double value) {
  // Large magnitudes print as integers (219046, not 2.19e+05); the rest to 4 significant digits.
  const double magnitude = std::fabs(value);
  if (magnitude >= 1e4 && magnitude < 1e15) return fmt::format("{:.0f}", value);
  return fmt::format("{:.4g}", value);
}

std::string format_cell(const Cell& cell) {
  if (!cell.present) return "–";
  const auto& s = cell.stats.summary;
  return fmt::format("{} ± {} ({})", format_number(s.mean), format_number(s.sd), s.n);
}

}  // namespace sweep::report
