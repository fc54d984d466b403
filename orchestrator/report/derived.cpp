#include "report/derived.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "report/table.h"
#include "stats/ratio.h"
#include "util/error.h"
#include "util/value.h"

namespace sweep::report {
namespace {

const std::string* baseline_value(const spec::ParamMatch& baseline, const std::string& name) {
  for (const auto& [k, v] : baseline)
    if (k == name) return &v;
  return nullptr;
}

/// The parameters a point shares with its baseline point: every non-derived one outside `baseline`,
/// with the baseline's own values substituted in, so a point and its baseline get the same key.
std::string baseline_key(const store::PointRecord& p, const spec::ParamMatch& baseline) {
  std::string key;
  for (const auto& pr : p.params) {
    if (pr.derived) continue;
    const std::string* wanted = baseline_value(baseline, pr.name);
    key += wanted ? *wanted : pr.value;
    key += '\0';
  }
  return key;
}

bool is_baseline(const store::PointRecord& p, const spec::ParamMatch& baseline) {
  return std::all_of(baseline.begin(), baseline.end(), [&](const auto& kv) {
    const auto* pr = find_param(p, kv.first);
    return pr && pr->value == kv.second;
  });
}

double number_of(const store::PointRecord& p, const std::string& name) {
  const auto* pr = find_param(p, name);
  if (!pr || (pr->type != "int" && pr->type != "float"))
    throw Error(ErrorKind::usage, fmt::format("baseline parameter \"{}\" must be a number to scale by, got \"{}\" at point {}",
                                              name, pr ? pr->value : "", p.point_id));
  return std::stod(pr->value);
}

}  // namespace

std::vector<std::optional<std::size_t>> baseline_indices(const std::vector<PointResult>& results,
                                                         const spec::ParamMatch& baseline) {
  std::vector<std::optional<std::size_t>> out(results.size());
  if (results.empty()) return out;
  std::vector<std::string> names;
  for (const auto& [k, v] : baseline) names.push_back(k);
  require_known(names, param_info(results).all, "baseline parameter");
  std::unordered_map<std::string, std::size_t> bases;
  for (std::size_t j = 0; j < results.size(); ++j)
    if (is_baseline(*results[j].point, baseline)) bases.try_emplace(baseline_key(*results[j].point, baseline), j);
  for (std::size_t i = 0; i < results.size(); ++i)
    if (const auto it = bases.find(baseline_key(*results[i].point, baseline)); it != bases.end()) out[i] = it->second;
  return out;
}

std::optional<std::size_t> baseline_index(const std::vector<PointResult>& results, std::size_t i,
                                          const spec::ParamMatch& baseline) {
  return baseline_indices(results, baseline).at(i);
}

double scale_against(const PointResult& point, const PointResult& base, const spec::ParamMatch& baseline) {
  double n = 1;
  for (const auto& [name, value] : baseline) n *= number_of(*point.point, name) / number_of(*base.point, name);
  return n;
}

std::optional<MetricStats> derive(spec::DerivedMetric kind, const std::string& metric, const PointResult& point,
                                  const PointResult& base_point, const spec::ParamMatch& baseline) {
  const auto pit = point.metrics.find(metric);
  const auto bit = base_point.metrics.find(metric);
  if (pit == point.metrics.end() || bit == base_point.metrics.end()) return std::nullopt;
  const MetricStats& p = pit->second;
  const MetricStats& base = bit->second;
  if (p.summary.n == 0 || base.summary.n == 0) return std::nullopt;
  const bool lower_better = p.better == "lower";
  const stats::Ratio r = lower_better ? stats::ratio_of_means(base.summary, p.summary)
                                      : stats::ratio_of_means(p.summary, base.summary);
  double factor = 1;
  MetricStats out;
  if (kind != spec::DerivedMetric::speedup) factor = 1 / scale_against(point, base_point, baseline);
  if (kind == spec::DerivedMetric::efficiency) factor *= 100, out.unit = "%";
  out.better = "higher";
  out.summary.n = std::min(p.summary.n, base.summary.n);
  out.summary.mean = out.summary.median = r.ratio * factor;
  out.summary.ci_low = r.low * factor;
  out.summary.ci_high = r.high * factor;
  out.summary.min = out.summary.ci_low;
  out.summary.max = out.summary.ci_high;
  // No per-run sample exists for a ratio of means: the "sd" is that implied by the interval, so a
  // table showing sd shows the propagated uncertainty.
  out.summary.sd = r.interval ? (out.summary.ci_high - out.summary.ci_low) / 4 * std::sqrt(static_cast<double>(out.summary.n)) : 0;
  return out;
}

std::optional<MetricStats> derive(spec::DerivedMetric kind, const std::string& metric,
                                  const std::vector<PointResult>& results, std::size_t i,
                                  const spec::ParamMatch& baseline) {
  const auto b = baseline_index(results, i, baseline);
  if (!b) return std::nullopt;
  return derive(kind, metric, results[i], results[*b], baseline);
}

}  // namespace sweep::report
