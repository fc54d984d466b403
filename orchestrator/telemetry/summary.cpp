#include "telemetry/summary.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <functional>
#include <set>

namespace sweep::telemetry {
namespace {

/// NVML's clock-event reasons that slow a GPU down (nvmlClocksEventReason*): SW power cap 0x4, HW slowdown
/// 0x8, SW thermal 0x20, HW thermal 0x40, HW power brake 0x80. Idle, application clocks, sync boost and
/// display clocks are not a slowdown of the work.
constexpr std::uint64_t kSlowdownReasons = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;

/// The node's span: to `end`, else to its last sample.
double span_of(const Log& log) {
  if (log.end_t) return *log.end_t;
  double t = 0;
  for (const auto& s : log.proc) t = std::max(t, s.t);
  for (const auto& s : log.rapl) t = std::max(t, s.t);
  for (const auto& s : log.gpu) t = std::max(t, s.t);
  return t;
}

/// One GPU's energy: its counter's last minus first reading, else the trapezoid integral of its power.
struct GpuEnergy {
  std::optional<double> joules;
  bool from_counter = false;
};

GpuEnergy gpu_energy(const Log& log, int index) {
  std::vector<const GpuSample*> samples;
  for (const auto& s : log.gpu)
    if (s.index == index) samples.push_back(&s);
  std::vector<const GpuSample*> counted;
  std::copy_if(samples.begin(), samples.end(), std::back_inserter(counted), [](auto* s) { return s->energy_j.has_value(); });
  if (counted.size() >= 2) return {*counted.back()->energy_j - *counted.front()->energy_j, true};
  std::vector<const GpuSample*> powered;
  std::copy_if(samples.begin(), samples.end(), std::back_inserter(powered), [](auto* s) { return s->power_w.has_value(); });
  if (powered.size() < 2) return {};
  double j = 0;
  for (std::size_t i = 1; i < powered.size(); ++i)
    j += (powered[i]->t - powered[i - 1]->t) * (*powered[i]->power_w + *powered[i - 1]->power_w) / 2;
  return {j, false};
}

/// The time in which at least one of the node's GPUs reported a slowdown: each interval between
/// successive sample times counts when a GPU sampled at its end was slowed.
std::optional<double> throttled(const Log& log) {
  std::set<double> times, slowed;
  bool any = false;
  for (const auto& s : log.gpu) {
    times.insert(s.t);
    if (!s.throttle) continue;
    any = true;
    if (*s.throttle & kSlowdownReasons) slowed.insert(s.t);
  }
  if (!any) return std::nullopt;
  double total = 0;
  for (auto it = std::next(times.begin(), times.empty() ? 0 : 1); it != times.end(); ++it)
    if (slowed.count(*it)) total += *it - *std::prev(it);
  return total;
}

/// A zone kind's energy on one node: per zone, its last minus its first reading.
std::optional<double> zone_energy(const Log& log, const std::string& kind) {
  std::optional<double> total;
  for (const auto& z : log.zones) {
    if (z.kind != kind) continue;
    const RaplSample* first = nullptr;
    const RaplSample* last = nullptr;
    for (const auto& s : log.rapl) {
      if (s.zone != z.zone) continue;
      if (!first) first = &s;
      last = &s;
    }
    if (first && last && last != first) total = total.value_or(0) + last->energy_j - first->energy_j;
  }
  return total;
}

/// A sum, maximum or mean over values that may be absent.
struct Acc {
  std::optional<double> sum, max;
  double mean_total = 0;
  std::size_t mean_count = 0;
  void add(std::optional<double> v) {
    if (!v) return;
    sum = sum.value_or(0) + *v;
    max = std::max(max.value_or(*v), *v);
  }
  void sample(std::optional<double> v) {
    if (v) mean_total += *v, ++mean_count;
  }
  std::optional<double> mean() const { return mean_count ? std::optional(mean_total / static_cast<double>(mean_count)) : std::nullopt; }
};

/// "proc ok; rapl unavailable: permission denied (n1, n2); nvml ok (n1), off (n2)".
std::string sources_line(const std::vector<Log>& logs) {
  std::vector<std::string> parts;
  for (const char* source : {"proc", "rapl", "nvml"}) {
    std::vector<std::pair<std::string, std::vector<std::string>>> states;  // "state: detail" -> nodes
    for (const auto& log : logs)
      for (const auto& s : log.sources) {
        if (s.source != source) continue;
        const std::string key = s.state == "unavailable" && !s.detail.empty() ? s.state + ": " + s.detail : s.state;
        auto it = std::find_if(states.begin(), states.end(), [&](const auto& x) { return x.first == key; });
        if (it == states.end()) it = states.insert(states.end(), {key, {}});
        it->second.push_back(log.node);
      }
    if (states.empty()) continue;
    std::vector<std::string> each;
    for (const auto& [key, nodes] : states) {
      std::string nodes_text;
      for (const auto& n : nodes) nodes_text += (nodes_text.empty() ? "" : ", ") + n;
      each.push_back(states.size() == 1 && key == "ok" ? key : fmt::format("{} ({})", key, nodes_text));
    }
    std::string line = source;
    for (std::size_t i = 0; i < each.size(); ++i) line += (i ? ", " : " ") + each[i];
    parts.push_back(line);
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

}  // namespace

Summary summarize(const std::vector<Log>& logs) {
  Summary out;
  if (logs.empty()) return out;
  double span = 0;
  Acc gpu_j, util, mem_util, gpu_mem, temp, throttle_s, cpu_j, dram_j, cpu_s, rss;
  std::size_t counter_gpus = 0, integral_gpus = 0;
  std::vector<std::string> cut_short;
  for (const auto& log : logs) {
    span = std::max(span, span_of(log));
    if (!log.end_t) cut_short.push_back(log.node);
    for (const auto& g : log.gpus) {
      const auto e = gpu_energy(log, g.index);
      gpu_j.add(e.joules);
      if (e.joules) ++(e.from_counter ? counter_gpus : integral_gpus);
    }
    for (const auto& s : log.gpu) {
      util.sample(s.util_pct);
      mem_util.sample(s.mem_util_pct);
      gpu_mem.add(s.mem_mib);
      temp.add(s.temp_c);
    }
    throttle_s.add(throttled(log));
    cpu_j.add(zone_energy(log, "package"));
    dram_j.add(zone_energy(log, "dram"));
    if (log.proc.size() >= 2) cpu_s.add(log.proc.back().cpu_s - log.proc.front().cpu_s);
    for (const auto& s : log.proc) rss.add(s.rss_mib);
  }
  auto put = [&](const char* name, std::optional<double> v, const char* unit, const char* better = "") {
    if (v) out.metrics.push_back({name, *v, unit, better});
  };
  auto per_span = [&](std::optional<double> v) { return v && span > 0 ? std::optional(*v / span) : std::nullopt; };
  put("telemetry_span_s", span, "s", "lower");
  put("gpu_energy_j", gpu_j.sum, "J", "lower");
  put("avg_gpu_power_w", per_span(gpu_j.sum), "W");
  put("gpu_util_mean", util.mean(), "%");
  put("gpu_mem_util_mean", mem_util.mean(), "%");
  put("peak_gpu_mem_mib", gpu_mem.max, "MiB", "lower");
  put("max_gpu_temp_c", temp.max, "C");
  put("throttled_s", throttle_s.max, "s", "lower");
  put("cpu_energy_j", cpu_j.sum, "J", "lower");
  put("dram_energy_j", dram_j.sum, "J", "lower");
  if (gpu_j.sum || cpu_j.sum || dram_j.sum)
    put("energy_j", gpu_j.sum.value_or(0) + cpu_j.sum.value_or(0) + dram_j.sum.value_or(0), "J", "lower");
  put("cpu_time_s", cpu_s.sum, "s", "lower");
  put("cpu_cores_used_mean", per_span(cpu_s.sum), "cores");
  put("peak_rss_mib", rss.max, "MiB", "lower");

  out.provenance.emplace_back("telemetry.sources", sources_line(logs));
  if (counter_gpus || integral_gpus)
    out.provenance.emplace_back("telemetry.gpu_energy_from", !integral_gpus ? "counter"
                                                             : !counter_gpus ? "power integral"
                                                                             : "counter and power integral");
  if (!cut_short.empty()) {
    std::string nodes;
    for (const auto& n : cut_short) nodes += (nodes.empty() ? "" : " ") + n;
    out.provenance.emplace_back("telemetry.cut_short", nodes);
  }
  return out;
}

std::vector<Metric> per_joule(const Summary& summary, const std::map<std::string, double>& workload_metrics) {
  auto find = [&](std::string_view name) -> std::optional<double> {
    for (const auto& m : summary.metrics)
      if (m.name == name) return m.value;
    return std::nullopt;
  };
  const auto energy = find("energy_j");
  const auto span = find("telemetry_span_s");
  if (!energy || !span || *energy <= 0 || *span <= 0) return {};
  const double watts = *energy / *span;
  std::vector<Metric> out;
  struct Rate {
    const char *rate, *name, *unit;
  };
  constexpr std::array<Rate, 2> kRates{{{"samples_per_s", "samples_per_joule", "samples/J"},
                                        {"tokens_per_s", "tokens_per_joule", "tokens/J"}}};
  for (const auto& [rate, name, unit] : kRates)
    if (const auto it = workload_metrics.find(rate); it != workload_metrics.end())
      out.push_back({name, it->second / watts, unit, "higher"});
  return out;
}

}  // namespace sweep::telemetry
