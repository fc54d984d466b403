#include "telemetry/log_writer.h"

#include <catch2/catch.hpp>

#include "telemetry/log.h"

using namespace sweep::telemetry;

TEST_CASE("telemetry log_writer: the records, exactly") {
  CHECK(proc_record({1.5, 2.25, 300.125, 3, 400.5}) == "proc 1.500 2.250 300.125 3 400.500\n");
  CHECK(proc_record({1.5, 2.25, 300.125, 3}) == "proc 1.500 2.250 300.125 3 -\n");
  CHECK(rapl_record(2, "0:1", 12.5) == "rapl 2.000 0:1 12.500\n");
  CHECK(rapl_record(2, "0", std::nullopt) == "rapl 2.000 0 -\n");
  const GpuSample g{.t = 1, .index = 3, .energy_j = 100, .power_w = 99.5, .util_pct = {}, .mem_util_pct = {},
                    .mem_mib = {}, .sm_mhz = {}, .temp_c = {}, .throttle = 0x4};
  CHECK(gpu_record(g) == "gpu 1.000 3 100.000 99.500 - - - - - 0x4\n");
  CHECK(end_record(7.25) == "end 7.250\n");
  CHECK(header_records("n1", 1000, 5.5, {{"proc", "ok", ""}, {"nvml", "unavailable", "lib.so: no\nfile"}}, {},
                       {{"0", "package", "package-0"}}) ==
        "sweep-telemetry format=2\nnode n1\ninterval_ms 1000\nepoch_s 5.500\nsource proc ok\n"
        "source nvml unavailable lib.so: no file\nrapl_zone 0 package package-0\n");
}

TEST_CASE("telemetry log_writer: what it writes, the parser reads back") {
  const GpuSample g0{.t = 0, .index = 1, .energy_j = 0, .power_w = 300, .util_pct = 97, .mem_util_pct = 40,
                     .mem_mib = 70000, .sm_mhz = 1980, .temp_c = 61, .throttle = 0x0};
  GpuSample g1 = g0;
  g1.t = 1.001;
  g1.energy_j = 300.5;
  g1.power_w = std::nullopt;
  std::string text = header_records("gpu-node-1", 1000, 1795000000.25, {{"proc", "ok", ""}, {"rapl", "ok", ""},
                                    {"nvml", "ok", "libnvidia-ml.so.1"}},
                                    {{1, "GPU-1b2c", "NVIDIA H100 80GB HBM3"}}, {{"0", "package", "package-0"}});
  text += proc_record({0, 0.5, 12.5, 2}) + rapl_record(0, "0", 0.0) + gpu_record(g0);
  text += proc_record({1.001, 1.5, 900, 5, 950}) + rapl_record(1.001, "0", 210.5) + gpu_record(g1) + end_record(1.2);
  const Log log = parse_telemetry(text, "telemetry.gpu-node-1");
  CHECK(log.node == "gpu-node-1");
  CHECK(log.interval_ms == 1000);
  CHECK(log.epoch_s == Approx(1795000000.25));
  REQUIRE(log.sources.size() == 3);
  CHECK(log.sources[2].detail == "libnvidia-ml.so.1");
  REQUIRE(log.gpus.size() == 1);
  CHECK(log.gpus[0].name == "NVIDIA H100 80GB HBM3");
  REQUIRE(log.proc.size() == 2);
  CHECK(log.proc[1].rss_mib == Approx(900));
  CHECK(log.proc[1].peak_mib == Approx(950));
  REQUIRE(log.gpu.size() == 2);
  CHECK(*log.gpu[1].energy_j == Approx(300.5));
  CHECK_FALSE(log.gpu[1].power_w);
  CHECK(*log.gpu[0].throttle == 0u);
  REQUIRE(log.rapl.size() == 2);
  CHECK(log.end_t == Approx(1.2));
}
