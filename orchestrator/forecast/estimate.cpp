#include "forecast/estimate.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "forecast/wall_time.h"

namespace sweep::forecast {
namespace {

constexpr std::array<std::pair<Source, std::string_view>, 4> kSources{{
    {Source::history, "history"}, {Source::model, "model"}, {Source::time_limit, "time_limit"}, {Source::none, "none"}}};

}  // namespace

std::string_view source_name(Source s) {
  for (const auto& [source, name] : kSources)
    if (source == s) return name;
  return "none";
}

std::optional<Source> source_from_name(std::string_view name) {
  for (const auto& [source, n] : kSources)
    if (n == name) return source;
  return std::nullopt;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double nearest_rank(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100 * static_cast<double>(v.size())));
  return v[std::clamp<std::size_t>(rank, 1, v.size()) - 1];
}

PointForecast estimate_point(const PointInput& in) {
  PointForecast f{in.point_id, in.label.empty() ? in.point_id : in.label, in.runs, in.nodes, in.gpus};
  if (!in.history_s.empty()) {
    f.source = Source::history;
    f.expected_s = median(in.history_s);
    f.upper_s = nearest_rank(in.history_s, 95);
    f.history_runs = in.history_s.size();
    for (const auto* energy : {&in.history_gpu_energy_j, &in.history_cpu_energy_j})
      if (!energy->empty()) f.energy_j = f.energy_j.value_or(0) + median(*energy);
  } else if (in.model_s) {
    f.source = Source::model;
    f.expected_s = *in.model_s;
    f.upper_s = *in.model_s * kModelMargin;
  } else if (in.time_limit_s) {
    f.source = Source::time_limit;
    f.expected_s = f.upper_s = *in.time_limit_s;
  }
  return f;
}

Totals totals(const std::vector<PointForecast>& points, std::size_t slots) {
  Totals t;
  t.points = points.size();
  for (const PointForecast& p : points) {
    t.runs += static_cast<std::size_t>(p.runs);
    t.gpu_hours_expected += p.gpu_hours(p.expected_s);
    t.gpu_hours_upper += p.gpu_hours(p.upper_s);
    t.node_hours_expected += p.node_hours(p.expected_s);
    t.node_hours_upper += p.node_hours(p.upper_s);
    if (p.energy_j) t.energy_j = t.energy_j.value_or(0) + *p.energy_j * p.runs;
    if (p.source == Source::none) t.unknown.push_back(p.label);
  }
  if (t.unknown.empty()) t.wall_s = wall_seconds(points, slots);
  return t;
}

}  // namespace sweep::forecast
