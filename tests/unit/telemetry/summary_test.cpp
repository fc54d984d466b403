#include "telemetry/summary.h"

#include "telemetry/run_metrics.h"

#include <catch2/catch.hpp>

using namespace sweep::telemetry;

namespace {

std::optional<Metric> metric(const Summary& s, const std::string& name) {
  for (const auto& m : s.metrics)
    if (m.name == name) return m;
  return std::nullopt;
}

std::string provenance(const Summary& s, const std::string& key) {
  for (const auto& [k, v] : s.provenance)
    if (k == key) return v;
  return "";
}

GpuSample gpu(double t, int index, std::optional<double> energy, std::optional<double> power, double util,
              double mem, std::uint64_t throttle = 0) {
  GpuSample s;
  s.t = t;
  s.index = index;
  s.energy_j = energy;
  s.power_w = power;
  s.util_pct = util;
  s.mem_mib = mem;
  s.temp_c = 40 + t;
  s.throttle = throttle;
  return s;
}

Log node(const std::string& name) {
  Log log;
  log.node = name;
  log.sources = {{"proc", "ok", ""}, {"rapl", "ok", ""}, {"nvml", "ok", ""}};
  return log;
}

}  // namespace

TEST_CASE("telemetry summary: two nodes, GPUs by counter, CPUs by RAPL, the workload's processes") {
  Log a = node("n1");
  a.gpus = {{0, "GPU-a", "H100"}, {1, "GPU-b", "H100"}};
  a.gpu = {gpu(0, 0, 0, 100, 0, 100), gpu(0, 1, 0, 100, 0, 100), gpu(2, 0, 500, 300, 90, 8000, 0x1),
           gpu(2, 1, 520, 300, 80, 9000, 0x4), gpu(4, 0, 1100, 300, 100, 8000), gpu(4, 1, 1120, 300, 70, 9500)};
  a.zones = {{"0", "package", "package-0"}, {"0:0", "dram", "dram"}};
  a.rapl = {{0, "0", 0}, {0, "0:0", 0}, {4, "0", 240}, {4, "0:0", 20}};
  a.proc = {{0, 0.25, 10, 1}, {2, 4.25, 2000, 4}, {4, 8.25, 1500, 4}};
  a.end_t = 4;
  Log b = node("n2");
  b.gpus = {{0, "GPU-c", "H100"}};
  b.gpu = {gpu(0, 0, 0, 90, 0, 10), gpu(5, 0, 1000, 300, 60, 7000, 0x40)};
  b.zones = {{"0", "package", "package-0"}};
  b.rapl = {{0, "0", 0}, {5, "0", 300}};
  b.proc = {{0, 0, 5, 1}, {5, 3, 3000, 2}};

  const auto s = summarize({a, b});
  CHECK(metric(s, "telemetry_span_s")->value == 5);
  CHECK(metric(s, "gpu_energy_j")->value == 1100 + 1120 + 1000);
  CHECK(metric(s, "gpu_energy_j")->unit == "J");
  CHECK(metric(s, "gpu_energy_j")->better == "lower");
  CHECK(metric(s, "gpu_util_mean")->better.empty());
  CHECK(metric(s, "peak_rss_mib")->better == "lower");
  // Each GPU's energy over the time between its first and last reading: 1100/4 + 1120/4 + 1000/5.
  CHECK(metric(s, "avg_gpu_power_w")->value == Approx(275 + 280 + 200));
  CHECK(metric(s, "gpu_util_mean")->value == Approx((0 + 0 + 90 + 80 + 100 + 70 + 0 + 60) / 8.0));
  CHECK(metric(s, "peak_gpu_mem_mib")->value == 9500);
  CHECK(metric(s, "max_gpu_temp_c")->value == 45);
  // n1: 0x1 (idle) is no slowdown; 0x4 (power cap) at t=2 counts the interval 0..2. n2: 0x40 for 0..5.
  CHECK(metric(s, "throttled_s")->value == 5);
  CHECK(metric(s, "cpu_energy_j")->value == 540);
  CHECK(metric(s, "dram_energy_j")->value == 20);
  CHECK(metric(s, "energy_j")->value == 3220 + 540 + 20);
  CHECK(metric(s, "cpu_time_s")->value == 8 + 3);
  CHECK(metric(s, "cpu_cores_used_mean")->value == Approx(11.0 / 5));
  CHECK(metric(s, "peak_rss_mib")->value == 3000);
  CHECK(provenance(s, "telemetry.gpu_energy_from") == "counter");
  CHECK(provenance(s, "telemetry.cut_short") == "n2");
  CHECK(provenance(s, "telemetry.sources") == "proc ok; rapl ok; nvml ok");
}

TEST_CASE("telemetry summary: a zone unreadable at some samples counts from its first to its last reading") {
  Log a = node("n1");
  a.zones = {{"0", "package", "package-0"}};
  a.rapl = {{0, "0", std::nullopt}, {1, "0", 10.0}, {2, "0", std::nullopt}, {3, "0", 40.0}, {4, "0", std::nullopt}};
  a.end_t = 4;
  CHECK(metric(summarize({a}), "cpu_energy_j")->value == 30);
}

TEST_CASE("telemetry summary: a source ok on only some nodes gives no sums, which would pass for the run's") {
  Log a = node("n1");
  a.zones = {{"0", "package", "package-0"}};
  a.rapl = {{0, "0", 0.0}, {2, "0", 100.0}};
  a.proc = {{0, 0, 1, 1}, {2, 1, 2, 1}};
  a.end_t = 2;
  Log b = node("n2");
  b.sources[1] = {"rapl", "unavailable", "Permission denied"};
  b.proc = {{0, 0, 1, 1}, {2, 1, 2, 1}};
  b.end_t = 2;
  const auto s = summarize({a, b});
  CHECK_FALSE(metric(s, "cpu_energy_j").has_value());
  CHECK_FALSE(metric(s, "energy_j").has_value());
  CHECK(per_joule(s, {{"tokens_per_s", 100}}).empty());
  CHECK(metric(s, "cpu_time_s")->value == 2);  // proc was ok on both
  CHECK(provenance(s, "telemetry.partial") == "rapl not ok on n2: its sums left out");
  CHECK(metric(summarize({a}), "cpu_energy_j")->value == 100);  // alone, n1's is the run's
}

TEST_CASE("telemetry summary: without the energy counter, the GPU's power is integrated") {
  Log a = node("n1");
  a.gpus = {{0, "GPU-a", "T4"}};
  a.gpu = {gpu(0, 0, std::nullopt, 50, 0, 1), gpu(1, 0, std::nullopt, 70, 0, 1), gpu(3, 0, std::nullopt, 70, 0, 1)};
  a.end_t = 3;
  const auto s = summarize({a});
  CHECK(metric(s, "gpu_energy_j")->value == Approx(60 + 140));
  CHECK(provenance(s, "telemetry.gpu_energy_from") == "power integral");
}

TEST_CASE("telemetry summary: a source off or unavailable gives no metric, not zero") {
  Log a;
  a.node = "n1";
  a.sources = {{"proc", "ok", ""}, {"rapl", "unavailable", "Permission denied"}, {"nvml", "unavailable", "no library"}};
  a.proc = {{0, 0, 1, 1}, {1, 1, 2, 1}};
  a.end_t = 1;
  Log b = a;
  b.node = "n2";
  b.sources[2] = {"nvml", "off", ""};
  const auto s = summarize({a, b});
  for (const char* absent : {"gpu_energy_j", "avg_gpu_power_w", "gpu_util_mean", "throttled_s", "cpu_energy_j",
                             "dram_energy_j", "energy_j"}) {
    INFO(absent);
    CHECK_FALSE(metric(s, absent).has_value());
  }
  CHECK(metric(s, "cpu_time_s")->value == 2);
  CHECK(provenance(s, "telemetry.sources") ==
        "proc ok; rapl unavailable: Permission denied (n1, n2); nvml unavailable: no library (n1), off (n2)");
  CHECK(per_joule(s, {{"samples_per_s", 100}}).empty());
  CHECK(summarize({}).metrics.empty());
}

TEST_CASE("telemetry summary: samples and tokens per joule over the average power") {
  Summary s;
  s.metrics = {{"telemetry_span_s", 10, "s", "lower"}, {"energy_j", 2000, "J", "lower"}};
  const auto m = per_joule(s, {{"samples_per_s", 400}, {"tokens_per_s", 400 * 1024}, {"step_time_mean", 1}});
  REQUIRE(m.size() == 2);
  CHECK(m[0].name == "samples_per_joule");
  CHECK(m[0].value == Approx(2));  // 400 samples/s at 200 W
  CHECK(m[0].unit == "samples/J");
  CHECK(m[1].unit == "tokens/J");
  CHECK(m[0].better == "higher");
  CHECK(m[1].name == "tokens_per_joule");
  CHECK(m[1].value == Approx(2048));
}

TEST_CASE("telemetry summary: every metric it gives is one of the run's measurements (run_metrics.h)") {
  Log a = node("n1");
  a.gpus = {{0, "GPU-a", "H100"}};
  a.gpu = {gpu(0, 0, 0, 100, 0, 100, 0x4), gpu(2, 0, 500, 300, 90, 8000, 0x4)};
  for (auto& g : a.gpu) g.mem_util_pct = 30;
  a.zones = {{"0", "package", "package-0"}, {"0:0", "dram", "dram"}};
  a.rapl = {{0, "0", 0}, {0, "0:0", 0}, {2, "0", 240}, {2, "0:0", 20}};
  a.proc = {{0, 0, 10, 1}, {2, 1, 20, 1}};
  a.end_t = 2;
  const auto s = summarize({a});
  std::vector<Metric> all = s.metrics;
  for (const auto& m : per_joule(s, {{"samples_per_s", 1}, {"tokens_per_s", 1}})) all.push_back(m);
  CHECK(all.size() == 16);  // every metric of docs/telemetry.md's table
  for (const auto& m : all) {
    INFO(m.name);
    CHECK(is_run_metric(m.name));
  }
  CHECK_FALSE(is_run_metric("tokens_per_s"));
  CHECK_FALSE(is_run_metric("busbw"));
}

TEST_CASE("telemetry summary: peak_rss_mib is at least the largest VmHWM of one process, a peak between samples") {
  Log a = node("n1");
  a.proc = {{0, 0, 10, 1, 10.0}, {2, 1, 20, 1, 600.0}, {4, 2, 15, 1, 600.0}};  // 600 MiB held between samples
  a.end_t = 4;
  Log b = node("n2");
  b.proc = {{0, 0, 700, 2}, {2, 1, 800, 2}};  // format 1: no peak, the sampled sum
  CHECK(metric(summarize({a}), "peak_rss_mib")->value == 600);
  CHECK(metric(summarize({a, b}), "peak_rss_mib")->value == 800);
}
