#include "telemetry/summary.h"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <map>
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

/// One GPU's energy: its counter's last minus first reading, else the trapezoid integral of its power;
/// `covered_s` is the time between those two readings, the time the energy is of.
struct GpuEnergy {
  std::optional<double> joules;
  bool from_counter = false;
  double covered_s = 0;
};

/// `samples`: one GPU's, in time order.
GpuEnergy gpu_energy(const std::vector<const GpuSample*>& samples) {
  std::vector<const GpuSample*> counted;
  std::copy_if(samples.begin(), samples.end(), std::back_inserter(counted), [](auto* s) { return s->energy_j.has_value(); });
  if (counted.size() >= 2)
    return {*counted.back()->energy_j - *counted.front()->energy_j, true, counted.back()->t - counted.front()->t};
  std::vector<const GpuSample*> powered;
  std::copy_if(samples.begin(), samples.end(), std::back_inserter(powered), [](auto* s) { return s->power_w.has_value(); });
  if (powered.size() < 2) return {};
  double j = 0;
  for (std::size_t i = 1; i < powered.size(); ++i)
    j += (powered[i]->t - powered[i - 1]->t) * (*powered[i]->power_w + *powered[i - 1]->power_w) / 2;
  return {j, false, powered.back()->t - powered.front()->t};
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

/// A zone kind's energy on one node: per zone, its last minus its first reading (samples grouped by
/// zone in one pass: a file of many zones and samples is read in linear time).
std::optional<double> zone_energy(const Log& log, const std::string& kind) {
  std::map<std::string, std::pair<double, double>, std::less<>> first_last;  // zone -> (first, last)
  std::map<std::string, int, std::less<>> readings;
  for (const auto& s : log.rapl) {
    if (!s.energy_j) continue;
    auto [it, fresh] = first_last.emplace(s.zone, std::pair{*s.energy_j, *s.energy_j});
    if (!fresh) it->second.second = *s.energy_j;
    ++readings[s.zone];
  }
  std::optional<double> total;
  for (const auto& z : log.zones)
    if (const auto it = first_last.find(z.zone); z.kind == kind && it != first_last.end() && readings[z.zone] >= 2)
      total = total.value_or(0) + it->second.second - it->second.first;
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

/// What the nodes' logs add up to, before it becomes metrics.
struct Totals {
  double span = 0;
  Acc gpu_j, gpu_w, util, mem_util, gpu_mem, temp, throttle_s, cpu_j, dram_j, cpu_s, rss;
  std::size_t counter_gpus = 0, integral_gpus = 0;
  std::vector<std::string> cut_short;
};

void add_log(const Log& log, Totals& t) {
  t.span = std::max(t.span, span_of(log));
  if (!log.end_t) t.cut_short.push_back(log.node);
  std::map<int, std::vector<const GpuSample*>> by_gpu;  // one pass over the samples
  for (const auto& s : log.gpu) {
    by_gpu[s.index].push_back(&s);
    t.util.sample(s.util_pct);
    t.mem_util.sample(s.mem_util_pct);
    t.gpu_mem.add(s.mem_mib);
    t.temp.add(s.temp_c);
  }
  for (const auto& g : log.gpus) {
    const auto e = gpu_energy(by_gpu[g.index]);
    t.gpu_j.add(e.joules);
    if (e.joules && e.covered_s > 0) t.gpu_w.add(*e.joules / e.covered_s);
    if (e.joules) ++(e.from_counter ? t.counter_gpus : t.integral_gpus);
  }
  t.throttle_s.add(throttled(log));
  t.cpu_j.add(zone_energy(log, "package"));
  t.dram_j.add(zone_energy(log, "dram"));
  if (log.proc.size() >= 2) t.cpu_s.add(log.proc.back().cpu_s - log.proc.front().cpu_s);
  for (const auto& s : log.proc) t.rss.add(std::max(s.rss_mib, s.peak_mib.value_or(0)));
}

/// The nodes on which `source` is not ok: a sum over the other nodes would pass for the whole run's.
std::vector<std::string> short_of(const std::vector<Log>& logs, std::string_view source) {
  std::vector<std::string> nodes;
  for (const auto& log : logs)
    if (std::none_of(log.sources.begin(), log.sources.end(),
                     [&](const SourceStatus& s) { return s.source == source && s.state == "ok"; }))
      nodes.push_back(log.node);
  return nodes;
}

/// The summed metrics of each source, only when the source was ok on every node; otherwise absent, and
/// `telemetry.partial` says which source lacked which nodes.
void put_metrics(const std::vector<Log>& logs, Totals& t, Summary& out) {
  auto put = [&](const char* name, std::optional<double> v, const char* unit, const char* better = "") {
    if (v) out.metrics.push_back({name, *v, unit, better});
  };
  std::vector<std::string> partial;
  for (const char* source : {"proc", "rapl", "nvml"}) {
    const auto missing = short_of(logs, source);
    if (missing.empty() || missing.size() == logs.size()) continue;
    partial.push_back(fmt::format("{} not ok on {}: its sums left out", source, fmt::join(missing, ", ")));
    if (source == std::string_view("nvml")) t.gpu_j.sum.reset(), t.gpu_w.sum.reset();
    if (source == std::string_view("rapl")) t.cpu_j.sum.reset(), t.dram_j.sum.reset();
    if (source == std::string_view("proc")) t.cpu_s.sum.reset();
  }
  auto per_span = [&](std::optional<double> v) { return v && t.span > 0 ? std::optional(*v / t.span) : std::nullopt; };
  put("telemetry_span_s", t.span, "s", "lower");
  put("gpu_energy_j", t.gpu_j.sum, "J", "lower");
  put("avg_gpu_power_w", t.gpu_w.sum, "W");
  put("gpu_util_mean", t.util.mean(), "%");
  put("gpu_mem_util_mean", t.mem_util.mean(), "%");
  put("peak_gpu_mem_mib", t.gpu_mem.max, "MiB", "lower");
  put("max_gpu_temp_c", t.temp.max, "C");
  put("throttled_s", t.throttle_s.max, "s", "lower");
  put("cpu_energy_j", t.cpu_j.sum, "J", "lower");
  put("dram_energy_j", t.dram_j.sum, "J", "lower");
  if (t.gpu_j.sum || t.cpu_j.sum || t.dram_j.sum)
    put("energy_j", t.gpu_j.sum.value_or(0) + t.cpu_j.sum.value_or(0) + t.dram_j.sum.value_or(0), "J", "lower");
  put("cpu_time_s", t.cpu_s.sum, "s", "lower");
  put("cpu_cores_used_mean", per_span(t.cpu_s.sum), "cores");
  put("peak_rss_mib", t.rss.max, "MiB", "lower");
  if (!partial.empty()) out.provenance.emplace_back("telemetry.partial", fmt::format("{}", fmt::join(partial, "; ")));
}

}  // namespace

Summary summarize(const std::vector<Log>& logs) {
  Summary out;
  if (logs.empty()) return out;
  Totals t;
  for (const auto& log : logs) add_log(log, t);
  put_metrics(logs, t, out);
  out.provenance.emplace_back("telemetry.sources", sources_line(logs));
  if (t.counter_gpus || t.integral_gpus)
    out.provenance.emplace_back("telemetry.gpu_energy_from", !t.integral_gpus ? "counter"
                                                             : !t.counter_gpus ? "power integral"
                                                                               : "counter and power integral");
  if (!t.cut_short.empty()) out.provenance.emplace_back("telemetry.cut_short", fmt::format("{}", fmt::join(t.cut_short, " ")));
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
