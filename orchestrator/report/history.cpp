#include "report/history.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <regex>

#include "report/point_identity.h"
#include "store/store.h"
#include "telemetry/run_metrics.h"
#include "util/strings.h"

namespace sweep::report {
namespace {

constexpr const char* kNight = "night";
constexpr const char* kSystem = "system";  // the night's campaigns.system, where nights of several meet

std::vector<std::string> selected_labels(const store::Store& db, const HistoryRequest& r) {
  const std::regex rest(r.rest.empty() ? ".*" : r.rest);
  std::vector<std::string> labels;
  for (const auto& c : db.campaigns())
    if (c.label.starts_with(r.prefix) && (r.until.empty() || c.label <= r.until) &&
        std::regex_match(c.label.begin() + static_cast<std::ptrdiff_t>(r.prefix.size()), c.label.end(), rest))
      labels.push_back(c.label);
  std::sort(labels.begin(), labels.end());
  if (labels.size() > r.nights) labels.erase(labels.begin(), labels.end() - static_cast<std::ptrdiff_t>(r.nights));
  return labels;
}

/// Named metrics, or by default every metric but sweep's measurements of the runs (telemetry/run_metrics.h).
bool wanted(const HistoryRequest& r, const std::string& metric) {
  if (r.metrics.empty()) return !telemetry::is_run_metric(metric);
  return std::find(r.metrics.begin(), r.metrics.end(), metric) != r.metrics.end();
}

/// The results that have `metric`, with the night first among the parameters.
std::vector<PointResult> having(const History& h, const std::string& metric) {
  std::vector<PointResult> out;
  for (const auto& r : h.results)
    if (r.metrics.contains(metric)) out.push_back(r);
  return out;
}

/// The parameters that tell the points apart, the night left out: the rule the gate matches points by
/// (report/point_identity.h), so a parameter added with one value does not split a point's series.
std::vector<std::string> point_params(const std::vector<PointResult>& results) {
  auto params = point_identity({&results}, kNight).params;
  std::erase(params, std::string(kSystem));  // a row key beside the night, never a point's identity
  return params;
}


/// One point's means of a metric, one per night (NaN where it has no succeeded run).
struct PointSeries {
  std::string point;
  std::vector<double> means;
};

/// The series of every point of `results` (which have `metric`), in the order the points first appear.
std::vector<PointSeries> series_of(const std::vector<PointResult>& results, const std::string& metric,
                                   const std::vector<std::string>& nights) {
  const auto params = point_params(results);
  std::vector<PointSeries> out;
  for (const auto& r : results) {
    const std::string label = param_label(r, params);
    auto it = std::find_if(out.begin(), out.end(), [&](const PointSeries& s) { return s.point == label; });
    if (it == out.end()) it = out.insert(out.end(), PointSeries{label, std::vector<double>(nights.size(), NAN)});
    const auto night = std::find(nights.begin(), nights.end(), find_param(*r.point, kNight)->value) - nights.begin();
    const stats::Summary& s = r.metrics.at(metric).summary;
    if (s.n > 0 && night < static_cast<std::ptrdiff_t>(nights.size())) it->means[static_cast<std::size_t>(night)] = s.mean;
  }
  return out;
}

std::string relative_text(double relative) { return std::isfinite(relative) ? fmt::format("{:+.1f}%", 100 * relative) : "–"; }

/// A marker per night where a change point of `metric` begins; several at one night share it.
std::vector<FigureMarker> markers_of(const std::vector<HistoryChangePoint>& changes, const std::string& metric) {
  std::vector<FigureMarker> out;
  for (const auto& c : changes) {
    if (c.metric != metric) continue;
    const std::string label = relative_text(c.change.relative) + (c.point.empty() ? "" : " " + c.point);
    auto it = std::find_if(out.begin(), out.end(), [&](const FigureMarker& m) { return m.x == c.night; });
    if (it == out.end()) out.push_back({c.night, label});
    else it->label += "; " + label;
  }
  return out;
}

}  // namespace

History load_history(const store::Store& db, const HistoryRequest& request) {
  History h;
  h.prefix = request.prefix;
  h.nights = selected_labels(db, request);
  std::map<std::string, std::string> system_of;  // label -> its campaign's system
  std::set<std::string> systems;
  for (const auto& c : db.campaigns())
    if (std::find(h.nights.begin(), h.nights.end(), c.label) != h.nights.end()) {
      system_of[c.label] = c.system;
      systems.insert(c.system);
    }
  h.several_systems = systems.size() > 1;
  std::vector<std::string> seen;
  for (const auto& label : h.nights) {
    const CampaignData data = load_campaign(db, label);
    for (const auto& r : point_results(data)) {
      store::PointRecord p{label + "/" + r.point->point_id, static_cast<std::int64_t>(h.points.size()), {}};
      p.params.push_back({kNight, label.substr(request.prefix.size()), "string", false});
      if (h.several_systems && !find_param(*r.point, kSystem))
        p.params.push_back({kSystem, system_of[label].empty() ? "(none)" : system_of[label], "string", false});
      p.params.insert(p.params.end(), r.point->params.begin(), r.point->params.end());
      h.points.push_back(std::move(p));
      PointResult kept{&h.points.back(), {}, r.succeeded, r.failed, r.unfinished};
      for (const auto& [name, m] : r.metrics) {
        seen.push_back(name);
        if (wanted(request, name)) kept.metrics.emplace(name, m);
      }
      h.results.push_back(std::move(kept));
    }
  }
  std::sort(seen.begin(), seen.end());
  seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
  if (!h.nights.empty()) require_known(request.metrics, seen, "history metric");
  h.metrics = metric_names(h.results);
  return h;
}

std::vector<Table> history_tables(const History& h) {
  std::vector<Table> out;
  for (const auto& metric : h.metrics) {
    const auto results = having(h, metric);
    std::vector<std::string> rows{kNight};
    if (h.several_systems) rows.push_back(kSystem);
    for (Table& t : build_tables(results, TableSpec{rows, point_params(results), {metric}})) {
      t.name = "history-" + metric;  // its file name is safe_file_name(t.name)
      t.title = metric + " by night";
      out.push_back(std::move(t));
    }
  }
  return out;
}

std::vector<HistoryChangePoint> history_change_points(const History& h, const stats::ChangePointOptions& options) {
  std::vector<std::string> nights;
  for (const auto& label : h.nights) nights.push_back(label.substr(h.prefix.size()));
  std::vector<HistoryChangePoint> out;
  for (const auto& metric : h.metrics)
    for (const auto& s : series_of(having(h, metric), metric, nights))
      for (const auto& c : stats::change_points(s.means, options))
        out.push_back({metric, s.point, nights[c.index], h.nights[c.index], c});
  return out;
}

Table change_point_table(const std::vector<HistoryChangePoint>& changes) {
  Table t;
  t.name = "change-points";
  t.title = "change points: the first night of each lasting shift (E-divisive, permutation p < 0.05)";
  t.row_names = {"metric", "point", "first night", "before", "after", "change", "p"};
  for (const auto& c : changes) {
    t.row_values.push_back({c.metric, c.point.empty() ? "–" : c.point, c.night, format_number(c.change.before),
                            format_number(c.change.after), relative_text(c.change.relative), fmt::format("{:.2g}", c.change.p)});
    t.cells.emplace_back();
  }
  return t;
}

std::vector<FigureText> trend_figures(const History& h, const std::string& campaign,
                                      const std::vector<HistoryChangePoint>& changes) {
  std::vector<FigureText> out;
  for (const auto& metric : h.metrics) {
    const auto results = having(h, metric);
    spec::ReportFigure g;
    g.name = "trend-" + metric;  // its files are named safe_file_name(g.name)
    g.title = metric + " by night";
    g.paper_title = false;
    g.kind = spec::FigureKind::lines;
    g.x = kNight;
    g.y = metric;
    g.series = point_params(results);
    g.at = {"history"};
    out.push_back(build_figure(results, g, campaign, markers_of(changes, metric)));
  }
  return out;
}

}  // namespace sweep::report
