#include "report/campaign_data.h"

#include <fmt/core.h>

#include <set>
#include <unordered_map>

#include "store/store.h"
#include "util/error.h"
#include "util/strings.h"

namespace sweep::report {

CampaignData load_campaign(const store::Store& db, const std::string& label) {
  auto campaign = db.find_campaign(label);
  if (!campaign) {
    std::vector<std::string> labels;
    for (const auto& c : db.campaigns()) labels.push_back(c.label);
    throw Error(ErrorKind::not_found,
                fmt::format("no campaign labelled \"{}\" in {}{}{}", label, db.path(), did_you_mean(label, labels),
                            labels.empty() ? " (the database has no campaigns)" : ""));
  }
  CampaignData data;
  data.campaign = *campaign;
  data.points = db.points(campaign->id);
  data.runs = db.runs(campaign->id);
  data.metrics = db.metrics(campaign->id);
  return data;
}

std::vector<PointResult> point_results(const CampaignData& data) {
  std::vector<PointResult> out(data.points.size());
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < data.points.size(); ++i) {
    out[i].point = &data.points[i];
    index.emplace(data.points[i].point_id, i);
  }
  for (const auto& run : data.runs) {
    auto& r = out[index.at(run.point_id)];
    if (run.state == store::RunState::succeeded) ++r.succeeded;
    else if (run.state == store::RunState::failed) ++r.failed;
    else ++r.unfinished;
  }
  // Per point and metric: the per-run means, in run order.
  struct PerRun { double sum = 0; std::size_t n = 0; };
  std::map<std::pair<std::size_t, std::string>, std::map<std::int64_t, PerRun>> samples;
  for (const auto& row : data.metrics) {
    if (row.state != store::RunState::succeeded) continue;
    const std::size_t p = index.at(row.point_id);
    auto& per_run = samples[{p, row.metric.name}][row.run_id];
    per_run.sum += row.metric.value;
    ++per_run.n;
    auto& stats = out[p].metrics[row.metric.name];
    stats.unit = row.metric.unit;
    stats.better = row.metric.better;
  }
  for (const auto& [key, runs] : samples) {
    std::vector<double> values;
    for (const auto& [run_id, pr] : runs) values.push_back(pr.sum / static_cast<double>(pr.n));
    auto& m = out[key.first].metrics[key.second];
    m.summary = stats::summarize(values);
    m.values = std::move(values);
  }
  return out;
}

std::vector<std::string> metric_names(const CampaignData& data) {
  std::set<std::string> names;
  for (const auto& row : data.metrics) names.insert(row.metric.name);
  return {names.begin(), names.end()};
}

std::vector<std::string> metric_names(const std::vector<PointResult>& results) {
  std::set<std::string> names;
  for (const auto& r : results)
    for (const auto& [name, stats] : r.metrics) names.insert(name);
  return {names.begin(), names.end()};
}

}  // namespace sweep::report
