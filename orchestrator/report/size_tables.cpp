#include "report/size_tables.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <map>
#include <set>

namespace sweep::report {
namespace {

/// The y of the default size figure, by preference: bandwidths, then times.
constexpr std::array<std::string_view, 5> kFigureMetrics{"busbw", "bandwidth_MBps", "algbw", "time_us", "latency_us"};

/// The message size at each index of the point's size_bytes (its mean over the runs).
std::map<std::int64_t, double> sizes_of(const PointResult& r) {
  std::map<std::int64_t, double> out;
  if (const auto it = r.metrics.find(std::string(kSizeMetric)); it != r.metrics.end())
    for (const auto& [index, s] : it->second.by_index) out[index] = s.mean;
  return out;
}

Table size_table(const std::vector<PointResult>& results, const std::string& metric, const std::vector<std::string>& varying) {
  Table t;
  t.name = metric + ".by-size";
  t.title = metric + " by message size";
  t.unit = metric_unit(metric, results);
  t.row_names = {"size (B)"};
  std::set<double> sizes;
  for (const auto& r : results)
    for (const auto& [index, size] : sizes_of(r)) sizes.insert(size);
  for (double size : sizes) t.row_values.push_back({fmt::format("{:.0f}", size)});
  t.cells.assign(sizes.size(), std::vector<Cell>(results.size()));
  for (std::size_t c = 0; c < results.size(); ++c) {
    t.columns.push_back(results.size() == 1 ? metric : param_label(results[c], varying));
    t.column_units.push_back(t.unit);
    const auto it = results[c].metrics.find(metric);
    if (it == results[c].metrics.end()) continue;
    const auto sizes_here = sizes_of(results[c]);
    for (const auto& [index, summary] : it->second.by_index) {
      const auto size = sizes_here.find(index);
      if (size == sizes_here.end()) continue;
      const auto row = static_cast<std::size_t>(std::distance(sizes.begin(), sizes.find(size->second)));
      t.cells[row][c] = Cell{true, MetricStats{it->second.unit, it->second.better, summary, {}, {}}};
    }
  }
  return t;
}

}  // namespace

std::vector<Table> size_tables(const PointsView& points) {
  std::vector<Table> out;
  for (const auto& metric : points.size_indexed)
    if (metric != kSizeMetric) out.push_back(size_table(points.results, metric, points.varying));
  return out;
}

std::optional<spec::ReportFigure> size_figure(const PointsView& points) {
  const std::vector<std::string>& metrics = points.size_indexed;
  const auto y = std::find_first_of(kFigureMetrics.begin(), kFigureMetrics.end(), metrics.begin(), metrics.end());
  if (y == kFigureMetrics.end()) return std::nullopt;
  spec::ReportFigure f;
  f.y = std::string(*y);
  f.x = std::string(kSizeMetric);
  f.name = "default-" + f.y + "-by-size";
  f.title = f.y + " by message size";
  f.paper_title = false;
  f.kind = spec::FigureKind::lines;
  if (points.results.size() > 1) f.series = points.varying;
  f.log_x = true;
  f.at = SourceLocation{"the default figures"};
  return f;
}

}  // namespace sweep::report
