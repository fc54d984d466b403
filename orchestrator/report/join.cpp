#include "report/join.h"

#include <fmt/core.h>

#include "report/declared_tables.h"
#include "report/predicted.h"
#include "report/units.h"
#include "store/store.h"
#include "util/error.h"

namespace sweep::report {
namespace {

/// The `on` values of a point; the caller has checked that it has them all.
std::vector<std::string> key_of(const PointResult& r, const std::vector<std::string>& on) {
  std::vector<std::string> key;
  for (const auto& name : on) key.push_back(find_param(*r.point, name)->value);
  return key;
}

void check_names(const PointsView& here, const PointsView& there, const spec::ReportJoin& join) {
  const std::string context = "join: ";
  require_known_at(join.at, join.on, here.params, "parameter to join on", context + "this campaign: ");
  require_known_at(join.at, join.on, there.params, "parameter to join on", context + "the joined campaign: ");
  for (const auto& c : join.metrics) {
    require_known_at(c.at, {c.metric}, here.metrics, "metric to carry", context);
    if (there.has_metric(c.as))
      fail_at(c.at, fmt::format("join: the joined campaign already has a metric \"{}\"; carry it \"as\" another name", c.as));
  }
}

}  // namespace

void carry_metrics(const PointsView& here, std::vector<PointResult>& there, const spec::ReportJoin& join) {
  if (here.results.empty() || there.empty()) return;
  check_names(here, PointsView(there), join);
  for (PointResult& to : there) {
    const auto key = key_of(to, join.on);
    const PointResult* match = nullptr;
    for (const PointResult& from : here.results) {
      if (key_of(from, join.on) != key) continue;
      if (match)
        fail_at(join.at, fmt::format("join: point {} of the joined campaign matches points {} and {} here; add the "
                                     "parameters that tell them apart to \"on\"",
                                     to.point->point_id, match->point->point_id, from.point->point_id));
      match = &from;
    }
    if (!match) continue;
    for (const auto& c : join.metrics)
      if (const auto it = match->metrics.find(c.metric); it != match->metrics.end())
        to.metrics[c.as] = scaled_stats(it->second, c.scale, c.unit.empty() ? it->second.unit : c.unit);
  }
}

std::optional<JoinedParts> joined_parts(const store::Store& db, const PointsView& here,
                                        const spec::ReportJoin& join, const std::string& label, bool figures,
                                        const std::vector<model::Interconnect>& interconnects) {
  JoinedParts parts;
  parts.label = label;
  if (parts.label.empty()) {
    for (const auto& c : db.campaigns())  // oldest first: the last one wins
      if (c.experiment == join.experiment) parts.label = c.label;
    if (parts.label.empty()) return std::nullopt;
  }
  const CampaignData data = load_campaign(db, parts.label);
  std::vector<PointResult> there = point_results(data);
  carry_metrics(here, there, join);
  add_predictions(there, join.model, interconnects);
  const PointsView joined(there);  // after the carried and predicted metrics: the analyses see them
  for (const auto& t : join.tables)
    for (auto& built : build_declared(joined, t)) parts.tables.push_back(std::move(built));
  if (figures)
    for (const auto& g : join.figures) parts.figures.push_back(build_figure(joined, g, parts.label));
  return parts;
}

}  // namespace sweep::report
