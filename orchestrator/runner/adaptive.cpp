#include "runner/adaptive.h"

#include <fmt/core.h>

#include <algorithm>
#include <map>

#include "store/store.h"

namespace sweep::runner {

std::vector<PointStanding> standings(const spec::RepetitionTarget& target, std::size_t max,
                                     const std::vector<store::RunRecord>& runs,
                                     const std::vector<store::MetricRow>& rows) {
  std::vector<PointStanding> out;
  std::map<std::string, std::size_t> at;  // point id -> its entry in out
  for (const auto& r : runs) {
    auto [it, fresh] = at.try_emplace(r.point_id, out.size());
    if (fresh) out.push_back(PointStanding{r.point_id, 0, 0, {}});
    PointStanding& p = out[it->second];
    ++p.runs;
    if (r.state == store::RunState::pending || r.state == store::RunState::running) ++p.unfinished;
  }
  std::map<std::string, std::map<std::int64_t, std::vector<double>>> samples;  // point -> index -> values
  for (const auto& row : rows)
    if (row.state == store::RunState::succeeded && row.metric.name == target.metric)
      samples[row.point_id][row.metric.index].push_back(row.metric.value);
  for (PointStanding& p : out) {
    std::vector<std::vector<double>> by_index;
    for (auto& [index, values] : samples[p.point_id]) by_index.push_back(std::move(values));
    p.precision = stats::precision_of(by_index, target.ci95_rel, max);
  }
  return out;
}

std::vector<std::pair<std::string, int>> more_runs(const std::vector<PointStanding>& points, std::size_t max) {
  std::vector<std::pair<std::string, int>> out;
  for (const PointStanding& p : points)
    if (p.unfinished > 0) return {};
  for (const PointStanding& p : points) {
    if (p.precision.met || p.runs >= max || p.precision.values == 0) continue;
    // The rule asks for values; failed runs gave none, so the shortfall is counted in values.
    const std::size_t short_by = p.precision.wanted > p.precision.values ? p.precision.wanted - p.precision.values : 1;
    const std::size_t add = std::min({short_by, p.runs, max - p.runs});
    out.emplace_back(p.point_id, static_cast<int>(add));
  }
  return out;
}

std::vector<store::RunRecord> extend_campaign(store::Store& db, std::int64_t campaign_id, const spec::Experiment& e) {
  if (!e.until) return {};
  const auto max = static_cast<std::size_t>(e.max_repetitions);
  const auto more = more_runs(standings(*e.until, max, db.runs(campaign_id), db.metrics(campaign_id)), max);
  if (more.empty()) return {};
  return db.add_runs(campaign_id, more);
}

std::string repetitions_summary(const store::Store& db, std::int64_t campaign_id, const spec::Experiment& e) {
  if (!e.until) return "";
  const auto max = static_cast<std::size_t>(e.max_repetitions);
  const auto points = standings(*e.until, max, db.runs(campaign_id), db.metrics(campaign_id));
  std::size_t met = 0, at_max = 0, unfinished = 0, no_values = 0, low = max, high = 0;
  for (const PointStanding& p : points) {
    if (p.precision.met) ++met, low = std::min(low, p.runs), high = std::max(high, p.runs);
    else if (p.unfinished > 0) ++unfinished;
    else if (p.precision.values == 0) ++no_values;
    else if (p.runs >= max) ++at_max;
  }
  std::string line = fmt::format("repetitions: {} of {} points met ci95_rel <= {}% of {}", met, points.size(),
                                 100 * e.until->ci95_rel, e.until->metric);
  if (met > 0) line += low == high ? fmt::format(" with {} runs", low) : fmt::format(" with {} to {} runs", low, high);
  if (at_max > 0) line += fmt::format("; {} reached max {} without it", at_max, max);
  if (unfinished > 0) line += fmt::format("; {} have runs unfinished", unfinished);
  if (no_values > 0)
    line += fmt::format("; {} have no value of {} (their runs failed, or no run reports that metric)", no_values,
                        e.until->metric);
  return line;
}

}  // namespace sweep::runner
