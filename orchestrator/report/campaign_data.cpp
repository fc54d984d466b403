#include "report/campaign_data.h"

#include <fmt/core.h>

#include <algorithm>
#include <set>
#include <unordered_map>

#include "report/hardware.h"
#include "report/provenance_changes.h"
#include "store/requested_resources.h"
#include "store/store.h"
#include "util/error.h"
#include "util/strings.h"

namespace sweep::report {

namespace {

// The CPU over every run; the GPU and NCCL facts over only the runs that asked for GPUs, where the runs
// recorded whether they did (a campaign from before they did: over every run, as then).
std::vector<store::ProvenanceCount> hardware_counts(const store::Store& db, std::int64_t campaign) {
  const std::string requested(store::kGpusRequestedKey);
  auto out = db.provenance_counts(campaign, {hardware_keys().front(), requested});
  const bool recorded = std::any_of(out.begin(), out.end(), [&](const auto& c) { return c.key == requested; });
  const std::vector<std::string> gpu_keys(hardware_keys().begin() + 1, hardware_keys().end());
  std::optional<store::ProvenanceFilter> only;
  if (recorded) only = store::ProvenanceFilter{requested, std::string(store::kNoGpusRequested)};
  for (auto& c : db.provenance_counts(campaign, gpu_keys, only)) out.push_back(std::move(c));
  return out;
}

/// The values of `keys` in the latest attempts of the runs that ended (succeeded or failed).
std::vector<store::AttemptValue> ended_values(const store::Store& db, std::int64_t campaign,
                                              const std::vector<std::string>& keys) {
  auto out = db.latest_provenance(campaign, keys, store::RunState::succeeded);
  for (auto& v : db.latest_provenance(campaign, keys, store::RunState::failed)) out.push_back(std::move(v));
  return out;
}

/// What the ended runs asked for (CampaignData::requests).
std::vector<store::AttemptValue> request_values(const store::Store& db, std::int64_t campaign,
                                                const std::string& executor) {
  std::vector<std::string> keys;
  for (std::string_view k : store::kRequestedResources) keys.push_back("resources." + std::string(k));
  for (const char* k : {".req_mem", ".timelimit", ".alloc_cpus", ".alloc_gpus"}) keys.push_back(executor + k);
  return ended_values(db, campaign, keys);
}

CampaignData load_snapshot(const store::Store& db, const std::string& label) {
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
  db.for_each_metric(campaign->id, [&](const store::MetricRowView& row) {
    data.metrics.push_back(row);
    if (std::find(std::begin(kUsageMetrics), std::end(kUsageMetrics), row.name) != std::end(kUsageMetrics))
      data.usage.push_back({row.run_id, std::string(row.name), row.value});
  });
  data.hardware = hardware_counts(db, campaign->id);
  const std::string& e = campaign->executor;
  data.scheduler_states = db.latest_provenance(campaign->id, {e + ".phase", e + ".state", e + ".reason"}, store::RunState::running);
  data.requests = request_values(db, campaign->id, e);
  data.facts = ended_values(db, campaign->id, provenance_fact_keys());
  data.forecast = db.forecasts(campaign->id);
  for (auto& v : campaign_fact_values(*campaign)) data.facts.push_back(std::move(v));
  return data;
}

}  // namespace

CampaignData load_campaign(const store::Store& db, const std::string& label) {
  CampaignData data;
  db.read_consistently([&] { data = load_snapshot(db, label); });
  return data;
}

std::vector<store::AttemptValue> provenance_values(const store::Store& db, const store::CampaignRecord& campaign,
                                                   const std::vector<std::string>& keys) {
  auto out = ended_values(db, campaign.id, keys);
  for (auto& v : campaign_fact_values(campaign))
    if (std::find(keys.begin(), keys.end(), v.key) != keys.end()) out.push_back(std::move(v));
  return out;
}

std::size_t started_runs(const CampaignData& data) {
  return static_cast<std::size_t>(
      std::count_if(data.runs.begin(), data.runs.end(), [](const store::RunRecord& r) { return r.attempt > 0; }));
}

namespace {

/// Summaries per index of (index, value) pairs; empty when all indices are 0.
std::vector<std::pair<std::int64_t, stats::Summary>> summarize_by_index(const std::vector<std::pair<std::int64_t, double>>& values) {
  std::vector<std::pair<std::int64_t, stats::Summary>> out;
  if (std::all_of(values.begin(), values.end(), [](const auto& p) { return p.first == 0; })) return out;
  auto pairs = values;
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

/// Fills out[p].metrics from the samples of the succeeded runs.
void aggregate_metrics(const CampaignData& data, const std::unordered_map<std::string, std::size_t>& point_index,
                       std::vector<PointResult>& out) {
  const MetricSamples& m = data.metrics;
  for (std::uint32_t p = 0; p < m.point_count(); ++p) {
    PointResult& r = out[point_index.at(m.point_id(p))];
    const auto& samples = m.samples(p);
    for (std::uint32_t id = 0; id < samples.size(); ++id) {
      if (samples[id].empty()) continue;
      auto& stats = r.metrics[m.name(id)];
      stats.unit = m.unit(id);
      stats.better = m.better(id);
      stats.values = samples[id].run_means();
      stats.summary = stats::summarize(stats.values);
      stats.by_index = summarize_by_index(samples[id].indexed);
    }
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
  for (std::uint32_t m = 0; m < data.metrics.name_count(); ++m) names.insert(data.metrics.name(m));
  return {names.begin(), names.end()};
}

std::vector<std::string> metric_names(const std::vector<PointResult>& results) {
  std::set<std::string> names;
  for (const auto& r : results)
    for (const auto& [name, stats] : r.metrics) names.insert(name);
  return {names.begin(), names.end()};
}

}  // namespace sweep::report
