#include "report/history.h"

#include <fmt/core.h>

#include <algorithm>
#include <regex>

#include "store/store.h"
#include "util/names.h"

namespace sweep::report {
namespace {

constexpr const char* kNight = "night";

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

bool wanted(const HistoryRequest& r, const std::string& metric) {
  return r.metrics.empty() || std::find(r.metrics.begin(), r.metrics.end(), metric) != r.metrics.end();
}

/// The results that have `metric`, with the night first among the parameters.
std::vector<PointResult> having(const History& h, const std::string& metric) {
  std::vector<PointResult> out;
  for (const auto& r : h.results)
    if (r.metrics.contains(metric)) out.push_back(r);
  return out;
}

/// The parameters that tell the points apart, the night left out.
std::vector<std::string> point_params(const std::vector<PointResult>& results) {
  std::vector<std::string> out;
  for (const auto& name : param_info(results).varying)
    if (name != kNight) out.push_back(name);
  return out;
}

}  // namespace

History load_history(const store::Store& db, const HistoryRequest& request) {
  History h;
  h.nights = selected_labels(db, request);
  std::vector<std::string> seen;
  for (const auto& label : h.nights) {
    const CampaignData data = load_campaign(db, label);
    for (const auto& r : point_results(data)) {
      store::PointRecord p{label + "/" + r.point->point_id, static_cast<std::int64_t>(h.points.size()), {}};
      p.params.push_back({kNight, label.substr(request.prefix.size()), "string", false});
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
    for (Table& t : build_tables(results, TableSpec{{kNight}, point_params(results), {metric}})) {
      t.name = "history-" + to_safe_name(metric);
      t.title = metric + " by night";
      out.push_back(std::move(t));
    }
  }
  return out;
}

std::vector<FigureText> trend_figures(const History& h, const std::string& campaign) {
  std::vector<FigureText> out;
  for (const auto& metric : h.metrics) {
    const auto results = having(h, metric);
    spec::ReportFigure g;
    g.name = "trend-" + to_safe_name(metric);
    g.title = metric + " by night";
    g.kind = spec::FigureKind::lines;
    g.x = kNight;
    g.y = metric;
    g.series = point_params(results);
    g.at = {"history"};
    out.push_back(build_figure(results, g, campaign));
  }
  return out;
}

}  // namespace sweep::report
