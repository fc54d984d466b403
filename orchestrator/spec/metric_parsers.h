#pragma once
// The built-in output parsers a `metrics` entry can name (`- parser: nccl-tests`), with the metrics each
// one reports (docs/metrics-format.md, "Built-in parsers"). parse/ implements them
// (parse/builtin_parsers.h); tests/unit/runner/metric_parsers_test.cpp checks that both agree.
#include <array>
#include <span>
#include <string_view>

namespace sweep::spec {

struct MetricParser {
  std::string_view name;
  std::span<const std::string_view> metrics;  // every metric name it can report
  /// What the default `success.metrics` requires of it: the metric every table row reports, so a run
  /// succeeds only when the program printed at least one row.
  std::string_view required;
};

inline constexpr std::array<std::string_view, 14> kNcclTestsMetrics{
    "size_bytes",      "count",                                                // every row
    "time_us",         "algbw",         "busbw",         "wrong",              // out-of-place
    "time_us_inplace", "algbw_inplace", "busbw_inplace", "wrong_inplace",      // in-place
    "busbw_avg",       "busbw_peak",    "busbw_peak_size_bytes", "out_of_bounds"};  // every table

inline constexpr std::array<std::string_view, 6> kOsuMetrics{
    "size_bytes", "latency_us", "latency_min_us", "latency_max_us", "iterations", "bandwidth_MBps"};

inline constexpr std::array<MetricParser, 2> kMetricParsers{{
    {"nccl-tests", kNcclTestsMetrics, "size_bytes"},
    {"osu", kOsuMetrics, "size_bytes"},
}};

/// The names alone, for `unknown parser "x" (available: ...)`.
inline constexpr std::array<std::string_view, kMetricParsers.size()> kMetricParserNames{"nccl-tests", "osu"};

/// The parser called `name`, or nullptr.
inline const MetricParser* find_metric_parser(std::string_view name) {
  for (const MetricParser& p : kMetricParsers)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace sweep::spec
