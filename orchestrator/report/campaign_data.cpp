#include "report/campaign_data.h"

#include <fmt/core.h>

#include <algorithm>
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

namespace {

/// Summaries per index of (index, value) pairs; empty when all indices are 0.
std::vector<std::pair<std::int64_t, stats::Summary>> summarize_by_index(std::vector<std::pair<std::int64_t, double>>& pairs) {
  std::vector<std::pair<std::int64_t, stats::Summary>> out;
  if (std::all_of(pairs.begin(), pairs.end(), [](const auto& p) { return p.first == 0; })) return out;
  std::stable_sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<double> sample;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    sample.push_back(pairs[i].second);
    if (i + 1 == pairs.size() || pairs[i + 1].first != pairs[i].first) {
      out.emplace_back(pairs[i].first, stats::summarize(sample));
      sample.clear();
    }
  }
  return out;
}

/// One point's values of one metric as the rows stream by. Each run's rows come together
/// (Store::metrics), so a run's values are summed until the run changes, then closed into its mean.
struct Accumulator {
  std::int64_t run = -1;
  double sum = 0;
  std::size_t n = 0;
  std::vector<double> per_run;                             // closed runs' means, in run order
  std::vector<std::pair<std::int64_t, double>> indexed;  // every (index, value)

  void add(const store::MetricRow& row) {
    if (run != row.run_id) close(), run = row.run_id;
    sum += row.metric.value;
    ++n;
    indexed.emplace_back(row.metric.index, row.metric.value);
  }
  void close() {
    if (n) per_run.push_back(sum / static_cast<double>(n));
    sum = 0, n = 0;
  }
};

/// Fills out[p].metrics from the succeeded runs' rows. Metric names are interned to small ids to keep
/// string work out of the 200,000-row loop.
void aggregate_metrics(const CampaignData& data, const std::unordered_map<std::string, std::size_t>& point_index,
                       std::vector<PointResult>& out) {
  std::unordered_map<std::string, std::size_t> metric_ids;
  std::vector<const store::MetricRecord*> first_of_metric;
  std::vector<std::vector<Accumulator>> acc(out.size());  // [point][metric id]
  std::size_t p = 0;
  std::string_view last_point;
  for (const auto& row : data.metrics) {
    if (row.state != store::RunState::succeeded) continue;
    if (row.point_id != last_point) p = point_index.at(row.point_id), last_point = row.point_id;
    const auto [it, added] = metric_ids.try_emplace(row.metric.name, first_of_metric.size());
    if (added) first_of_metric.push_back(&row.metric);
    if (acc[p].size() <= it->second) acc[p].resize(it->second + 1);
    acc[p][it->second].add(row);
  }
  for (std::size_t i = 0; i < out.size(); ++i)
    for (std::size_t m = 0; m < acc[i].size(); ++m) {
      Accumulator& a = acc[i][m];
      a.close();
      if (a.per_run.empty()) continue;
      auto& stats = out[i].metrics[first_of_metric[m]->name];
      stats.unit = first_of_metric[m]->unit;
      stats.better = first_of_metric[m]->better;
      stats.summary = stats::summarize(a.per_run);
      stats.values = std::move(a.per_run);
      stats.by_index = summarize_by_index(a.indexed);
    }
}

}  // namespace

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
  aggregate_metrics(data, index, out);
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
