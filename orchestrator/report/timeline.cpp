#include "report/timeline.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <map>

namespace sweep::report {
namespace {

using telemetry::Log;

struct PanelInfo {
  Panel panel;
  const char* title;
};
constexpr std::array<PanelInfo, kPanels> kPanelTitles{{{Panel::power, "Power (W)"},
                                                      {Panel::gpu_util, "GPU utilisation (%)"},
                                                      {Panel::cpu_cores, "CPU cores used"},
                                                      {Panel::gpu_memory, "GPU memory used (MiB)"},
                                                      {Panel::rss, "Workload's resident memory (MiB)"}}};

Keep keep_of(Panel p) { return p == Panel::gpu_util || p == Panel::cpu_cores ? Keep::mean : Keep::max; }

/// The rate of a cumulative counter: (v[i] − v[i−1]) / (t[i] − t[i−1]) at t[i]; a time that does not
/// advance is skipped, a counter that went back gives 0.
std::vector<SeriesPoint> rate(const std::vector<SeriesPoint>& counter) {
  std::vector<SeriesPoint> out;
  for (std::size_t i = 1; i < counter.size(); ++i) {
    const double dt = counter[i].t - counter[i - 1].t;
    if (dt > 0) out.push_back({counter[i].t, std::max(0.0, (counter[i].v - counter[i - 1].v) / dt)});
  }
  return out;
}

/// One GPU's series of a field that the sample may lack.
template <typename Field>
std::vector<SeriesPoint> gpu_field(const Log& log, int index, Field field) {
  std::vector<SeriesPoint> out;
  for (const auto& s : log.gpu)
    if (s.index == index && (s.*field)) out.push_back({s.t, *(s.*field)});
  return out;
}

struct GpuField {
  std::optional<double> telemetry::GpuSample::*field;
  const char* what;
  Panel panel;
};
constexpr std::array<GpuField, 3> kGpuFields{{{&telemetry::GpuSample::power_w, "power", Panel::power},
                                             {&telemetry::GpuSample::util_pct, "utilisation", Panel::gpu_util},
                                             {&telemetry::GpuSample::mem_mib, "memory", Panel::gpu_memory}}};

void add(std::vector<Series>& out, std::string label, Panel panel, std::vector<SeriesPoint> points) {
  if (!points.empty()) out.push_back({std::move(label), panel, std::move(points)});
}

std::vector<Series> node_series(const Log& log) {
  std::vector<Series> out;
  for (const auto& gpu : log.gpus)
    for (const auto& f : kGpuFields) add(out, fmt::format("{} GPU {} {}", log.node, gpu.index, f.what), f.panel, gpu_field(log, gpu.index, f.field));
  std::vector<SeriesPoint> cpu, rss;
  for (const auto& s : log.proc) cpu.push_back({s.t, s.cpu_s}), rss.push_back({s.t, s.rss_mib});
  add(out, log.node + " CPU cores", Panel::cpu_cores, rate(cpu));
  add(out, log.node + " RSS", Panel::rss, std::move(rss));
  for (const auto& zone : log.zones) {
    std::vector<SeriesPoint> energy;
    for (const auto& s : log.rapl)
      if (s.zone == zone.zone && s.energy_j) energy.push_back({s.t, *s.energy_j});
    add(out, fmt::format("{} RAPL {} power", log.node, zone.name.empty() ? zone.zone : zone.name), Panel::power, rate(energy));
  }
  return out;
}

double last_t(const Log& log) {
  double t = 0;
  if (!log.proc.empty()) t = std::max(t, log.proc.back().t);
  if (!log.rapl.empty()) t = std::max(t, log.rapl.back().t);
  if (!log.gpu.empty()) t = std::max(t, log.gpu.back().t);
  return t;
}

}  // namespace

const char* panel_title(Panel p) { return kPanelTitles[static_cast<std::size_t>(p)].title; }

std::vector<SeriesPoint> downsample(const std::vector<SeriesPoint>& points, std::size_t max_points, Keep keep) {
  max_points = std::max<std::size_t>(max_points, 1);
  if (points.size() <= max_points) return points;
  const double t0 = points.front().t, span = points.back().t - t0;
  std::vector<SeriesPoint> out;
  std::size_t bucket = 0, n = 0;
  double sum = 0;
  const auto flush = [&] {
    if (n == 0) return;
    if (keep == Keep::mean) out.back().v = sum / static_cast<double>(n);
    n = 0, sum = 0;
  };
  for (const auto& p : points) {
    const std::size_t b = span > 0 ? std::min(max_points - 1, static_cast<std::size_t>((p.t - t0) / span * static_cast<double>(max_points)))
                                   : 0;
    if (n == 0 || b != bucket) {
      flush();
      bucket = b;
      out.push_back(p);
    } else if (keep == Keep::max) {
      out.back().v = std::max(out.back().v, p.v);
    }
    ++n, sum += p.v;
  }
  flush();
  return out;
}

Timeline build_timeline(std::vector<Log> logs, std::size_t max_points) {
  std::sort(logs.begin(), logs.end(), [](const Log& a, const Log& b) { return a.node < b.node; });
  Timeline tl;
  for (const auto& log : logs) {
    const double last = last_t(log);
    tl.ends.push_back({log.node, log.end_t.value_or(last), !log.end_t});
    tl.t_max = std::max({tl.t_max, last, log.end_t.value_or(0)});
    for (auto& s : node_series(log)) {
      if (tl.series.size() == kMaxSeries) {
        ++tl.series_left_out;
        continue;
      }
      s.points = downsample(s.points, max_points, keep_of(s.panel));
      tl.series.push_back(std::move(s));
    }
  }
  return tl;
}

}  // namespace sweep::report
