#include "forecast/render.h"

#include <fmt/format.h>

#include <algorithm>

#include "util/escape.h"
#include "util/sinks.h"

namespace sweep::forecast {
namespace {

std::string seconds_text(std::optional<double> s) { return s ? fmt::format("{:.6g}", *s) : "unknown"; }

std::string optional_json(std::optional<double> v) { return v ? json_number(*v) : "null"; }

/// "1h 02m 03s" (an estimate's wall time).
std::string duration_text(double s) {
  const auto total = static_cast<long long>(s + 0.5);
  if (total < 60) return fmt::format("{}s", total);
  if (total < 3600) return fmt::format("{}m {:02}s", total / 60, total % 60);
  return fmt::format("{}h {:02}m {:02}s", total / 3600, total / 60 % 60, total % 60);
}

}  // namespace

std::string totals_line(const Totals& t, const Concurrency& c) {
  std::string line = fmt::format(
      "forecast: {} points, {} runs; {:.4f} GPU-hours expected, {:.4f} upper; {:.4f} node-hours expected, {:.4f} upper",
      t.points, t.runs, t.gpu_hours_expected, t.gpu_hours_upper, t.node_hours_expected, t.node_hours_upper);
  if (t.energy_j) line += fmt::format("; energy {:.6g} J ({:.4f} kWh) where history has it", *t.energy_j, *t.energy_j / 3.6e6);
  if (t.wall_s) line += fmt::format("; wall time about {} at {} (an estimate)", duration_text(*t.wall_s), c.said);
  if (!t.unknown.empty()) {
    std::string names;
    for (std::size_t i = 0; i < t.unknown.size() && i < 5; ++i) names += (i ? ", " : "") + t.unknown[i];
    if (t.unknown.size() > 5) names += fmt::format(", and {} more", t.unknown.size() - 5);
    line += fmt::format("; {} of {} points unknown (no history, model or time limit: {}), not counted", t.unknown.size(),
                        t.points, names);
  }
  return line;
}

std::string text_table(const std::vector<PointForecast>& points, const Totals& t, const Concurrency& c) {
  std::size_t width = 5;
  for (const auto& p : points) width = std::max(width, p.label.size());
  width = std::min<std::size_t>(width, 60);
  std::string out = fmt::format("{:<{}}  {:>5} {:>5} {:>5} {:>12} {:>12}  {:<24} {:>12} {:>12}\n", "point", width,
                                "runs", "nodes", "gpus", "expected_s", "upper_s", "source", "GPU-h exp", "GPU-h upper");
  for (const auto& p : points) {
    std::string source(source_name(p.source));
    if (p.source == Source::history) source += fmt::format(" ({} runs)", p.history_runs);
    if (p.source == Source::time_limit) source += " (upper bound)";
    out += fmt::format("{:<{}}  {:>5} {:>5} {:>5} {:>12} {:>12}  {:<24} {:>12.4f} {:>12.4f}\n",
                       terminal_text(p.label), width, p.runs, p.nodes, p.gpus, seconds_text(p.expected_s),
                       seconds_text(p.upper_s), source, p.gpu_hours(p.expected_s), p.gpu_hours(p.upper_s));
  }
  return out + totals_line(t, c) + "\n";
}

std::string json_object(const std::vector<PointForecast>& points, const Totals& t, const Concurrency& c,
                        const std::string& expected_start) {
  std::string out = "{\"points\":[";
  for (std::size_t i = 0; i < points.size(); ++i) {
    const PointForecast& p = points[i];
    out += fmt::format(
        "{}{{\"id\":{},\"label\":{},\"runs\":{},\"nodes\":{},\"gpus\":{},\"expected_s\":{},\"upper_s\":{},"
        "\"source\":\"{}\",\"history_runs\":{},\"energy_j\":{},\"gpu_hours_expected\":{},\"gpu_hours_upper\":{},"
        "\"node_hours_expected\":{},\"node_hours_upper\":{}}}",
        i ? "," : "", json_string(p.point_id), json_string(p.label), p.runs, p.nodes, p.gpus, optional_json(p.expected_s),
        optional_json(p.upper_s), source_name(p.source), p.history_runs, optional_json(p.energy_j),
        json_number(p.gpu_hours(p.expected_s)), json_number(p.gpu_hours(p.upper_s)),
        json_number(p.node_hours(p.expected_s)), json_number(p.node_hours(p.upper_s)));
  }
  std::string unknown;
  for (std::size_t i = 0; i < t.unknown.size(); ++i) unknown += (i ? "," : "") + json_string(t.unknown[i]);
  out += fmt::format(
      "],\"totals\":{{\"points\":{},\"runs\":{},\"gpu_hours_expected\":{},\"gpu_hours_upper\":{},"
      "\"node_hours_expected\":{},\"node_hours_upper\":{},\"energy_j\":{},\"wall_s\":{},\"unknown\":[{}]}},"
      "\"concurrency\":{},\"expected_start\":{}}}",
      t.points, t.runs, json_number(t.gpu_hours_expected), json_number(t.gpu_hours_upper),
      json_number(t.node_hours_expected), json_number(t.node_hours_upper), optional_json(t.energy_j),
      optional_json(t.wall_s), unknown, c.slots, expected_start.empty() ? "null" : json_string(expected_start));
  return out;
}

}  // namespace sweep::forecast
