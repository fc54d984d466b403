#pragma once
// Metrics derived across points against a baseline point (docs/reports.md#derived-metrics). Pure.
//
// The baseline point of a point p is found by report/baseline.h. The scale n is the product over the
// matched baseline parameters of p's value divided by the baseline's (2 nodes x 2 GPUs
// against 1 x 1: n = 4). With r = mean_p/mean_base for a higher-is-better metric (throughput) and
// mean_base/mean_p for a lower-is-better one (time):
//   speedup = r;   scaling factor S_n = r/n;   parallel efficiency = 100·r/n (%).
// The 95% interval is that of the ratio of means (stats/ratio.h), scaled alike.
#include <optional>
#include <string>
#include <vector>

#include "report/baseline.h"
#include "report/campaign_data.h"
#include "spec/report_spec.h"

namespace sweep::report {

/// n of `point` against `base`: the product over the matched parameters (ignored ones count for
/// nothing); Error(usage) when a matched parameter is not a number.
double scale_against(const PointResult& point, const PointResult& base, const spec::Baseline& baseline);

/// The derived value of `metric` at `point` against `base` as MetricStats (mean = the value,
/// ci_low/ci_high = its interval, n = the smaller sample, unit "" or "%"); nullopt when either lacks
/// the metric.
std::optional<MetricStats> derive(spec::DerivedMetric kind, const std::string& metric, const PointResult& point,
                                  const PointResult& base, const spec::Baseline& baseline);
/// The same at results[i] against its baseline point; nullopt also when it has none.
std::optional<MetricStats> derive(spec::DerivedMetric kind, const std::string& metric,
                                  const std::vector<PointResult>& results, std::size_t i,
                                  const spec::Baseline& baseline);

}  // namespace sweep::report
