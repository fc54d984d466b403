#include "report/efficiency.h"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <numeric>

#include "report/points_view.h"
#include "spec/escalation.h"
#include "spec/time_limit.h"
#include "util/failure_classes.h"

namespace sweep::report {

namespace {

/// A point's runs' recorded requests, by key (the first value seen: the runs of a point ask alike,
/// but for an escalated retry's).
using Keys = std::map<std::string, std::string>;

std::optional<double> count_of(const Keys& k, const std::string& key) {
  const auto it = k.find(key);
  if (it == k.end()) return std::nullopt;
  int n = 0;
  const auto [end, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), n);
  if (ec != std::errc() || end != it->second.data() + it->second.size() || n <= 0) return std::nullopt;
  return static_cast<double>(n);
}

Requested from_key(const Keys& k, const std::string& key, std::optional<double> value) {
  if (!value) return {};
  return Requested{value, k.at(key), key};
}

Requested requested_time(const Keys& k, const std::string& exec) {
  for (const std::string& key : {exec + ".timelimit", std::string("resources.time")})
    if (const auto it = k.find(key); it != k.end()) {
      const spec::TimeLimit t = spec::parse_time_limit(it->second);
      if (t.ok() && t.seconds) return from_key(k, key, t.seconds);
    }
  return {};
}

/// Memory per node: resources.mem, else the scheduler's ReqMem (a per-CPU "…c" left out), else
/// mem-per-cpu times the CPUs of one node: cpus-per-task times the tasks on it (ntasks-per-node, else
/// ntasks over nodes, else 1).
Requested requested_mem(const Keys& k, const std::string& exec) {
  if (k.count("resources.mem")) return from_key(k, "resources.mem", spec::slurm_memory_mib(k.at("resources.mem")));
  if (const auto it = k.find(exec + ".req_mem"); it != k.end() && !it->second.empty() && it->second.back() != 'c') {
    std::string text = it->second;
    if (text.back() == 'n') text.pop_back();
    return from_key(k, it->first, spec::slurm_memory_mib(text));
  }
  if (k.count("resources.mem-per-cpu")) {
    const auto per = spec::slurm_memory_mib(k.at("resources.mem-per-cpu"));
    if (per) {
      const double nodes = count_of(k, "resources.nodes").value_or(1);
      const double tasks = count_of(k, "resources.ntasks-per-node")
                               .value_or(std::max(1.0, count_of(k, "resources.ntasks").value_or(1) / nodes));
      return {*per * count_of(k, "resources.cpus-per-task").value_or(1) * tasks, k.at("resources.mem-per-cpu"),
              "resources.mem-per-cpu"};
    }
  }
  return {};
}

/// CPUs of the whole run: the scheduler's allocation, else cpus-per-task x tasks.
Requested requested_cpus(const Keys& k, const std::string& exec) {
  if (const auto n = count_of(k, exec + ".alloc_cpus")) return from_key(k, exec + ".alloc_cpus", n);
  const auto per_task = count_of(k, "resources.cpus-per-task");
  if (!per_task) return {};
  const double tasks =
      count_of(k, "resources.ntasks")
          .value_or(count_of(k, "resources.ntasks-per-node").value_or(1) * count_of(k, "resources.nodes").value_or(1));
  return {*per_task * tasks, fmt::format("{:g}", *per_task * tasks), "resources.cpus-per-task"};
}

Requested requested_gpus(const Keys& k, const std::string& exec) {
  for (const std::string& key : {exec + ".alloc_gpus", std::string("resources.gpus")})
    if (const auto n = count_of(k, key)) return from_key(k, key, n);
  if (const auto per_node = count_of(k, "resources.gpus-per-node")) {
    const double n = *per_node * count_of(k, "resources.nodes").value_or(1);
    return {n, fmt::format("{:g}", n), "resources.gpus-per-node"};
  }
  return {};
}

Used used_of(std::vector<double> values, std::string from) {
  Used u;
  u.runs = values.size();
  u.from = std::move(from);
  if (values.empty()) return u;
  u.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  u.max = *std::max_element(values.begin(), values.end());
  u.p95 = percentile(std::move(values), 95);
  return u;
}

/// Values of the first of `names` that some run measured, over `runs`, with its name.
std::pair<std::vector<double>, std::string> measured(
    const std::map<std::int64_t, std::map<std::string, double>>& by_run,
    const std::vector<const store::RunRecord*>& runs, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    std::vector<double> values;
    for (const auto* r : runs)
      if (const auto it = by_run.find(r->id); it != by_run.end())
        if (const auto v = it->second.find(name); v != it->second.end()) values.push_back(v->second);
    if (!values.empty()) return {values, name};
  }
  return {};
}

/// Cores used per run: CPU seconds over elapsed seconds.
Used cores_used(const std::map<std::int64_t, std::map<std::string, double>>& by_run,
                const std::vector<const store::RunRecord*>& runs) {
  for (const char* name : {"cpu_time_s", "slurm_cpu_time_s"}) {
    std::vector<double> values;
    for (const auto* r : runs)
      if (const auto it = by_run.find(r->id); it != by_run.end() && r->elapsed_s && *r->elapsed_s > 0)
        if (const auto v = it->second.find(name); v != it->second.end()) values.push_back(v->second / *r->elapsed_s);
    if (!values.empty()) return used_of(values, std::string(name) + " / elapsed_s");
  }
  return {};
}

/// `retries:` and `escalate:` lines that would have let the timed-out and out-of-memory runs go on:
/// two retries at factor 2, so up to 4x what they asked. The local executor never escalates (only a
/// batch executor's retries ask for more: runner/batch_driver.cpp), so there `retries:` and a comment
/// saying why no `escalate:`.
std::vector<std::string> escalate_lines(const PointEfficiency& e, const std::string& exec) {
  const bool time = e.timed_out > 0 && e.time.value, mem = e.out_of_memory > 0 && e.mem.value;
  if (!time && !mem) return {};
  std::vector<std::string> out{fmt::format("retries: {{{}{}{}}}", time ? "TIMEOUT: 2" : "", time && mem ? ", " : "",
                                           mem ? "OUT_OF_MEMORY: 2" : "")};
  if (exec == "local") {
    const char* what = time && mem ? "time and mem" : time ? "time" : "mem";
    out.emplace_back(fmt::format("# no escalate: the local executor retries with the same {} (escalate is for Slurm)", what));
    return out;
  }
  out.emplace_back("escalate:");
  if (time)
    out.push_back(fmt::format("  time: {{factor: 2, max: \"{}\"}}",
                              spec::slurm_time_text(std::ceil(*e.time.value * 4 / 60) * 60)));
  if (mem) {  // the resource that was asked for escalates: mem, or mem-per-cpu (its own value, per CPU)
    const bool per_cpu = e.mem.from == "resources.mem-per-cpu";
    const double base = per_cpu ? spec::slurm_memory_mib(e.mem.text).value_or(0) : *e.mem.value;
    out.push_back(fmt::format("  {}: {{factor: 2, max: \"{}\"}}", per_cpu ? "mem-per-cpu" : "mem",
                              spec::slurm_memory_text(base * 4)));
  }
  return out;
}

PointEfficiency point_efficiency(const store::PointRecord& p, const std::vector<const store::RunRecord*>& runs,
                                 const Keys& keys, const std::map<std::int64_t, std::map<std::string, double>>& by_run,
                                 const std::string& exec) {
  PointEfficiency e;
  e.point_id = p.point_id;
  e.label = point_label(p);
  std::vector<const store::RunRecord*> ok;
  std::vector<double> elapsed;
  for (const auto* r : runs) {
    if (r->state == store::RunState::succeeded) {
      ok.push_back(r);
      if (r->elapsed_s) elapsed.push_back(*r->elapsed_s);
    }
    e.timed_out += r->failure_class == failure::kTimeout;
    e.out_of_memory += r->failure_class == failure::kOutOfMemory;
  }
  e.succeeded = ok.size();
  e.time_s = used_of(elapsed, "elapsed_s");
  auto [mem, mem_from] = measured(by_run, ok, {"peak_rss_mib", "slurm_max_rss_mib"});
  e.mem_mib = used_of(std::move(mem), mem_from);
  e.cores = cores_used(by_run, ok);
  auto [util, util_from] = measured(by_run, ok, {"gpu_util_mean"});
  e.gpu_util = used_of(std::move(util), util_from);
  e.time = requested_time(keys, exec);
  e.mem = requested_mem(keys, exec);
  e.cpus = requested_cpus(keys, exec);
  e.gpus = requested_gpus(keys, exec);
  if (e.time_s.p95) e.suggest_time = suggested_time(*e.time_s.p95);
  if (e.mem_mib.p95) e.suggest_mem = suggested_mem(*e.mem_mib.p95);
  const std::size_t n = std::max(e.time_s.runs, e.mem_mib.runs);
  if (n > 0) e.basis = n == 1 ? "the one run (its p95 is that run)" : fmt::format("p95 of {} runs", n);
  e.escalate = escalate_lines(e, exec);
  return e;
}

}  // namespace

std::optional<double> percentile(std::vector<double> values, double p) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const double h = (static_cast<double>(values.size()) - 1) * std::clamp(p, 0.0, 100.0) / 100;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (h - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

std::string suggested_time(double seconds) {
  return spec::slurm_time_text(std::max(60.0, std::ceil(seconds * (1 + kSuggestionMargin) / 60) * 60));
}

std::string suggested_mem(double mib) {
  const double want = mib * (1 + kSuggestionMargin);
  if (want >= 1024) return fmt::format("{:g}G", std::ceil(want / 1024));
  return spec::slurm_memory_text(std::max(64.0, std::ceil(want / 64) * 64));
}

std::vector<PointEfficiency> efficiency(const CampaignData& data) {
  std::map<std::string, std::vector<const store::RunRecord*>> runs;
  std::map<std::int64_t, const std::string*> point_of;
  for (const auto& r : data.runs) {
    runs[r.point_id].push_back(&r);
    point_of[r.id] = &r.point_id;
  }
  std::map<std::string, Keys> keys;
  for (const auto& v : data.requests)
    if (const auto it = point_of.find(v.run_id); it != point_of.end()) keys[*it->second].emplace(v.key, v.value);
  std::map<std::int64_t, std::map<std::string, double>> by_run;
  for (const auto& m : data.usage) by_run[m.run_id][m.name] = m.value;
  std::vector<PointEfficiency> out;
  for (const auto& p : data.points)
    out.push_back(point_efficiency(p, runs[p.point_id], keys[p.point_id], by_run, data.campaign.executor));
  return out;
}

}  // namespace sweep::report
