#include "report/derived.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

#include "report/points_view.h"
#include "stats/ratio.h"
#include "util/error.h"

namespace sweep::report {
namespace {

double number_of(const store::PointRecord& p, const std::string& name) {
  const auto* pr = find_param(p, name);
  const std::optional<double> number = pr ? param_number(*pr) : std::nullopt;
  if (!number)
    throw Error(ErrorKind::usage, fmt::format("baseline parameter \"{}\" must be a number to scale by, got \"{}\" at point {}",
                                              name, pr ? pr->value : "", p.point_id));
  return *number;
}

/// The baseline point against itself: exactly 1 (100%), with no spread.
MetricStats itself(spec::DerivedMetric kind, std::size_t n) {
  MetricStats out;
  out.better = "higher";
  out.exact = true;
  const double one = kind == spec::DerivedMetric::efficiency ? 100 : 1;
  if (kind == spec::DerivedMetric::efficiency) out.unit = "%";
  out.summary.n = n;
  out.summary.mean = out.summary.median = out.summary.ci_low = out.summary.ci_high = out.summary.min = out.summary.max = one;
  return out;
}

}  // namespace

double scale_against(const PointResult& point, const PointResult& base, const spec::Baseline& baseline) {
  double n = 1;
  for (const auto& [name, value] : baseline.match) n *= number_of(*point.point, name) / number_of(*base.point, name);
  return n;
}

std::optional<MetricStats> derive(spec::DerivedMetric kind, const std::string& metric, const PointResult& point,
                                  const PointResult& base_point, const spec::Baseline& baseline) {
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
  if (point.point == base_point.point) return itself(kind, p.summary.n);
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
                                  const spec::Baseline& baseline) {
  const auto b = baseline_index(results, i, baseline);
  if (!b) return std::nullopt;
  return derive(kind, metric, results[i], results[*b], baseline);
}

}  // namespace sweep::report
