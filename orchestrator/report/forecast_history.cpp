#include "report/forecast_history.h"

#include <cmath>
#include <unordered_map>

#include "report/campaign_data.h"
#include "report/point_identity.h"
#include "store/store.h"

namespace sweep::report {
namespace {

/// A figure a forecast may use: finite and not negative (a database from elsewhere may hold anything).
bool usable(double v) { return std::isfinite(v) && v >= 0; }

void append(std::vector<double>& to, const std::map<std::string, MetricStats>& metrics, const char* name) {
  if (const auto it = metrics.find(name); it != metrics.end())
    for (double v : it->second.values)
      if (usable(v)) to.push_back(v);
}

}  // namespace

std::map<std::string, PointHistory> forecast_history(const store::Store& db, const std::string& experiment,
                                                     const std::vector<store::PointRecord>& planned,
                                                     const std::string& system) {
  std::vector<CampaignData> earlier;
  std::vector<bool> own;  // of `system`
  for (const store::CampaignRecord& c : db.campaigns())
    if (c.experiment == experiment) {
      earlier.push_back(load_campaign(db, c.label));
      own.push_back(c.system == system);
    }
  std::vector<PointResult> planned_results;
  for (const auto& p : planned) planned_results.push_back({&p, {}, 0, 0, 0});
  std::vector<std::vector<PointResult>> results;
  for (const auto& data : earlier) results.push_back(point_results(data));
  std::vector<const std::vector<PointResult>*> groups{&planned_results};
  for (const auto& r : results) groups.push_back(&r);
  const PointIdentity identity = point_identity(groups);
  std::unordered_map<std::string, std::string> by_key;  // identity key -> planned point id
  for (const auto& p : planned) by_key.emplace(identity_key(p, identity), p.point_id);
  std::map<std::string, PointHistory> mine, others;  // this system's campaigns, every other's
  for (std::size_t c = 0; c < earlier.size(); ++c) {
    auto& out = own[c] ? mine : others;
    std::unordered_map<std::string, std::string> planned_of;  // this campaign's point id -> planned point id
    for (const PointResult& r : results[c])
      if (const auto it = by_key.find(identity_key(*r.point, identity)); it != by_key.end()) {
        planned_of.emplace(r.point->point_id, it->second);
        PointHistory& h = out[it->second];
        append(h.gpu_energy_j, r.metrics, "gpu_energy_j");
        append(h.cpu_energy_j, r.metrics, "cpu_energy_j");
      }
    for (const store::RunRecord& run : earlier[c].runs)
      if (const auto it = planned_of.find(run.point_id);
          it != planned_of.end() && run.state == store::RunState::succeeded && run.elapsed_s && usable(*run.elapsed_s))
        out[it->second].elapsed_s.push_back(*run.elapsed_s);
  }
  for (auto* side : {&mine, &others})
    std::erase_if(*side, [](const auto& entry) { return entry.second.elapsed_s.empty(); });
  for (auto& [point, history] : others) mine.try_emplace(point, std::move(history));  // only where this system has none
  return mine;
}

}  // namespace sweep::report
