#include "report/presets.h"

#include <fmt/core.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <array>
#include <string_view>

#include "report/baseline.h"
#include "report/points_view.h"
#include "report/size_tables.h"
#include "telemetry/run_metrics.h"

namespace sweep::report {
namespace {

using spec::DerivedMetric;

struct PresetColumn {
  std::string_view param;   // a parameter column, left out when the campaign lacks it
  std::string_view metric;  // a metric column
  DerivedMetric derived;
  std::string_view label;
  std::string_view unit = "";  // converted from the metric's (report/units.h); "" = the metric's own
  double scale = 1;
};

struct Preset {
  std::string_view name;
  std::string_view title;
  std::array<std::string_view, 2> requires_metrics;
  std::vector<PresetColumn> columns;
};

// Seed 000 (GPT-2 DDP, epoch time and memory), seed 003 (nano-cluster scaling), seed 000's e-16
// (all-reduce transfer speed per backend).
const std::vector<Preset>& presets() {
  static const std::vector<Preset> kPresets{
      {"training",
       "Training time and memory",
       {"epoch_time_headline", "peak_memory"},
       {{"experiment_id", "", DerivedMetric::none, "Experiment"},
        {"model", "", DerivedMetric::none, "Model"},
        {"parallelism", "", DerivedMetric::none, "Parallelism"},
        {"nodes", "", DerivedMetric::none, "Nodes"},
        {"gpus_per_node", "", DerivedMetric::none, "GPUs per Node"},
        {"", "epoch_time_headline", DerivedMetric::none, "Epoch 2 time (s)"},
        {"", "peak_memory", DerivedMetric::none, "Peak memory (MiB)"}}},
      {"scaling",
       "Throughput, scaling and network",
       {"samples_per_s", "comm_bytes_per_step"},
       {{"setup", "", DerivedMetric::none, "Setup"},
        {"nodes", "", DerivedMetric::none, "Nodes"},
        {"gpus_per_node", "", DerivedMetric::none, "GPUs per Node"},
        {"parallelism", "", DerivedMetric::none, "Parallelism"},
        {"", "samples_per_s", DerivedMetric::none, "Sample Thrp. (samples/s)"},
        {"", "samples_per_s", DerivedMetric::scaling, "Scaling Factor"},
        {"", "net_throughput", DerivedMetric::none, "Net Thrp. (B/s)"},
        {"", "comm_bytes_per_step", DerivedMetric::none, "Net Vol. (B/step)"}}},
      // Seed 000's "Backend" is the interconnect, its "Protocol" the library (collbench's --backend). Its
      // transfer speed is 2 x size / time (its script counts the all-reduced buffer twice), which is 2 x
      // algbw; busbw (size / time on 2 ranks) stays beside it.
      {"transfer",
       "All-reduce transfer speed",
       {"algbw", "time_us"},
       {{"experiment_id", "", DerivedMetric::none, "Experiment"},
        {"nodes", "", DerivedMetric::none, "Nodes"},
        {"gpus_per_node", "", DerivedMetric::none, "GPUs per Node"},
        {"interconnect", "", DerivedMetric::none, "Backend"},
        {"backend", "", DerivedMetric::none, "Protocol"},
        {"", "algbw", DerivedMetric::none, "Measured Transfer speed (GB/s)", "", 2},
        {"", "time_us", DerivedMetric::none, "Time (s)", "s"},
        {"", "busbw", DerivedMetric::none, "busbw (GB/s)"}}},
  };
  return kPresets;
}

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

spec::ReportColumn column(std::string param, std::string metric, DerivedMetric derived, std::string label) {
  spec::ReportColumn c;
  c.param = std::move(param);
  c.metric = std::move(metric);
  c.derived = derived;
  c.label = std::move(label);
  return c;
}

/// The default tables' baseline, 1 x 1 (docs/reports.md#default-tables): one 1 x 1 point shared by every
/// `parallelism` when the campaign ran it once, else each parallelism's own (campaigns that repeated it).
spec::Baseline default_baseline(const PointsView& points) {
  spec::Baseline own;
  own.match = {{"nodes", "1"}, {"gpus_per_node", "1"}};
  if (!points.has_param("parallelism")) return own;
  spec::Baseline shared = own;
  shared.ignore = {"parallelism"};
  return match_baselines(points, shared).conflict ? own : shared;
}

spec::ReportTable table_of(const Preset& p, const PointsView& points) {
  spec::ReportTable t;
  t.name = std::string(p.name);
  t.title = std::string(p.title);
  t.spread = spec::Spread::ci95;
  const bool can_scale = points.has_param("nodes") && points.has_param("gpus_per_node");
  if (can_scale) t.baseline = default_baseline(points);
  std::vector<std::string> shown;
  for (const auto& c : p.columns) {
    if (!c.param.empty() && points.has_param(std::string(c.param))) {
      t.columns.push_back(column(std::string(c.param), "", DerivedMetric::none, std::string(c.label)));
      shown.emplace_back(c.param);
    }
  }
  for (const auto& v : points.varying)
    if (!contains(shown, v)) t.columns.push_back(column(v, "", DerivedMetric::none, ""));
  for (const auto& c : p.columns) {
    if (c.metric.empty() || !points.has_metric(std::string(c.metric))) continue;
    if (c.derived != DerivedMetric::none && !can_scale) continue;
    t.columns.push_back(column("", std::string(c.metric), c.derived, std::string(c.label)));
    t.columns.back().unit = std::string(c.unit);
    t.columns.back().scale = c.scale;
  }
  return t;
}

}  // namespace

std::vector<spec::ReportTable> default_tables(const PointsView& points) {
  std::vector<spec::ReportTable> out;
  const std::vector<std::string>& per_size = points.size_indexed;  // a mean over sizes is no seed's number
  for (const Preset& p : presets())
    if (std::all_of(p.requires_metrics.begin(), p.requires_metrics.end(),
                    [&](std::string_view m) { return contains(points.metrics, m) && !contains(per_size, m); }))
      out.push_back(table_of(p, points));
  return out;
}

namespace {

/// The first varying parameter whose values are numbers, and whether they span 100x or more.
std::optional<std::pair<std::string, bool>> numeric_axis(const std::vector<PointResult>& results,
                                                         const std::vector<std::string>& varying) {
  for (const auto& name : varying) {
    double low = 0, high = 0;
    bool numeric = true, first = true;
    for (const auto& r : results) {
      const store::ParamRecord* p = find_param(*r.point, name);
      if (!p) continue;
      const std::optional<double> number = param_number(*p);
      if (!number) numeric = false;
      if (!numeric) break;
      const double v = *number;
      low = first ? v : std::min(low, v), high = first ? v : std::max(high, v), first = false;
    }
    if (numeric && !first) return std::pair<std::string, bool>{name, low > 0 && high >= 100 * low};
  }
  return std::nullopt;
}

}  // namespace

namespace {

/// How many lines `series` makes: the distinct combinations of their values over the points.
std::size_t line_count(const std::vector<PointResult>& results, const std::vector<std::string>& series) {
  std::set<std::vector<std::string>> lines;
  for (const auto& r : results) {
    std::vector<std::string> values;
    for (const auto& name : series)
      if (const store::ParamRecord* p = find_param(*r.point, name)) values.push_back(p->value);
    lines.insert(std::move(values));
  }
  return lines.size();
}

/// The figures of the metrics not in `skip` against the first varying parameter, appended to `out`.
void parameter_figures(const PointsView& points, std::vector<spec::ReportFigure>& out) {
  const std::vector<PointResult>& results = points.results;
  if (results.size() < 2) return;  // one point: nothing varies (the view then lists every parameter as varying)
  const std::vector<std::string>& varying = points.varying;
  if (varying.empty()) return;
  const auto axis = numeric_axis(results, varying);
  const std::string x = axis ? axis->first : varying.front();
  std::vector<std::string> series;
  for (const auto& name : varying)
    if (name != x) series.push_back(name);
  if (line_count(results, series) > kMaxDefaultSeries) return;  // more lines than a reader can tell apart
  for (const std::string& metric : points.metrics) {
    if (out.size() == kMaxDefaultFigures) break;
    if (contains(points.size_indexed, metric) || telemetry::is_run_metric(metric)) continue;
    spec::ReportFigure f;
    f.name = "default-" + metric;
    f.title = fmt::format("{} by {}", metric, x);
    f.paper_title = false;
    f.kind = axis ? spec::FigureKind::lines : spec::FigureKind::bars;
    f.x = x;
    f.y = metric;
    f.series = series;
    f.log_x = axis && axis->second;
    f.at = SourceLocation{"the default figures"};
    out.push_back(std::move(f));
  }
}

}  // namespace

std::vector<spec::ReportFigure> default_figures(const PointsView& points) {
  std::vector<spec::ReportFigure> out;
  if (const auto f = size_figure(points); f && line_count(points.results, f->series) <= kMaxDefaultSeries) out.push_back(*f);
  parameter_figures(points, out);
  return out;
}

}  // namespace sweep::report
