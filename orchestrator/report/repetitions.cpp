#include "report/repetitions.h"

#include <fmt/core.h>

#include <cmath>
#include <limits>
#include <map>

#include "report/points_view.h"
#include "spec/load.h"
#include "stats/precision.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/strings.h"

namespace sweep::report {
namespace {

/// The worst relative half-width over the metric's indexes at one point (+infinity without values).
double worst_precision(const PointResult& r, const std::string& metric) {
  const auto it = r.metrics.find(metric);
  if (it == r.metrics.end()) return std::numeric_limits<double>::infinity();
  if (it->second.by_index.empty()) return stats::relative_half_width(it->second.summary);
  double worst = 0;
  for (const auto& [index, summary] : it->second.by_index) worst = std::max(worst, stats::relative_half_width(summary));
  return worst;
}

std::string percent(double rel) { return std::isinf(rel) ? "–" : fmt::format("{:.2f}%", 100 * rel); }

std::string sentence(const RepetitionsView& v) {
  return fmt::format("Each point ran {} to {} times, until the 95% confidence interval of its mean {} was at most "
                     "{}% of the mean (at every index of a metric with one value per index).",
                     v.min, v.max, v.metric, 100 * v.target);
}

}  // namespace

std::optional<RepetitionsView> repetitions_view(const CampaignData& data, const PointsView& points) {
  std::optional<spec::Experiment> e;
  try {
    e = spec::load_stored(data.campaign.spec_text, data.campaign.spec_path, data.campaign.overrides);
  } catch (const Error&) {
    return std::nullopt;  // the campaign's tables do not need it; only this section is left out
  }
  if (!e->until) return std::nullopt;
  RepetitionsView view{e->until->metric, e->until->ci95_rel, e->repetitions, e->max_repetitions, {}};
  std::map<std::string, std::size_t> runs;
  for (const auto& run : data.runs) ++runs[run.point_id];
  for (const PointResult& r : points.results) {
    const double rel = worst_precision(r, view.metric);
    const std::size_t n = runs[r.point->point_id];
    const char* status = rel <= view.target ? "met" : n >= static_cast<std::size_t>(view.max) ? "max reached" : "not met";
    view.points.push_back({param_text(*r.point, points.varying, " "), n, rel, status});
  }
  return view;
}

std::string repetitions_markdown(const RepetitionsView& view) {
  std::string out = "## Repetitions\n\n" + sentence(view) + "\n\n| point | runs | ci95 (% of mean) | target |\n| --- | ---: | ---: | --- |\n";
  for (const auto& p : view.points)
    out += fmt::format("| {} | {} | {} | {} |\n", p.point.empty() ? "(the point)" : join(split(p.point, '|'), "\\|"), p.runs,
                       percent(p.ci95_rel), p.status);
  return out + "\n";
}

std::string repetitions_html(const RepetitionsView& view) {
  std::string out = "<h2>Repetitions</h2>\n<p>" + xml_text(sentence(view)) +
                    "</p>\n<table id=\"repetitions\"><thead><tr><th>point</th><th>runs</th><th>ci95 (% of mean)</th>"
                    "<th>target</th></tr></thead>\n<tbody>\n";
  for (const auto& p : view.points)
    out += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>\n",
                       xml_text(p.point), p.runs, percent(p.ci95_rel), p.status);
  return out + "</tbody></table>\n";
}

}  // namespace sweep::report
