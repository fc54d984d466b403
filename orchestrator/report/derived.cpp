#include "report/derived.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

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

bool is_baseline_of(const store::PointRecord& candidate, const store::PointRecord& p, const spec::ParamMatch& baseline) {
  for (const auto& pr : candidate.params) {
    if (pr.derived) continue;
    const std::string* wanted = baseline_value(baseline, pr.name);
    if (wanted) {
      if (pr.value != *wanted) return false;
    } else if (const auto* other = find_param(p, pr.name); !other || other->value != pr.value) {
      return false;
    }
  }
  return true;
}

double number_of(const store::PointRecord& p, const std::string& name) {
  const auto* pr = find_param(p, name);
  if (!pr || (pr->type != "int" && pr->type != "float"))
    throw Error(ErrorKind::usage, fmt::format("baseline parameter \"{}\" must be a number to scale by, got \"{}\" at point {}",
                                              name, pr ? pr->value : "", p.point_id));
  return std::stod(pr->value);
}

}  // namespace

std::optional<std::size_t> baseline_index(const std::vector<PointResult>& results, std::size_t i,
                                          const spec::ParamMatch& baseline) {
  if (results.empty()) return std::nullopt;
  std::vector<std::string> known;
  for (const auto& pr : results.front().point->params) known.push_back(pr.name);
  std::vector<std::string> names;
  for (const auto& [k, v] : baseline) names.push_back(k);
  require_known(names, known, "baseline parameter");
  for (std::size_t j = 0; j < results.size(); ++j)
    if (is_baseline_of(*results[j].point, *results[i].point, baseline)) return j;
  return std::nullopt;
}

double scale_against(const PointResult& point, const PointResult& base, const spec::ParamMatch& baseline) {
  double n = 1;
  for (const auto& [name, value] : baseline) n *= number_of(*point.point, name) / number_of(*base.point, name);
  return n;
}

std::optional<MetricStats> derive(spec::DerivedMetric kind, const std::string& metric,
                                  const std::vector<PointResult>& results, std::size_t i,
                                  const spec::ParamMatch& baseline) {
  const auto b = baseline_index(results, i, baseline);
  if (!b) return std::nullopt;
  const auto pit = results[i].metrics.find(metric);
  const auto bit = results[*b].metrics.find(metric);
  if (pit == results[i].metrics.end() || bit == results[*b].metrics.end()) return std::nullopt;
  const MetricStats& p = pit->second;
  const MetricStats& base = bit->second;
  if (p.summary.n == 0 || base.summary.n == 0) return std::nullopt;
  const bool lower_better = p.better == "lower";
  const stats::Ratio r = lower_better ? stats::ratio_of_means(base.summary, p.summary)
                                      : stats::ratio_of_means(p.summary, base.summary);
  double factor = 1;
  MetricStats out;
  if (kind != spec::DerivedMetric::speedup) factor = 1 / scale_against(results[i], results[*b], baseline);
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

}  // namespace sweep::report
