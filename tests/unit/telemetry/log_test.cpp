#include "telemetry/log.h"

#include <catch2/catch.hpp>

#include "util/error.h"

using namespace sweep;
using namespace sweep::telemetry;

namespace {

const char* kTwoGpus =
    "sweep-telemetry format=1\n"
    "node gpu-node-1\n"
    "interval_ms 1000\n"
    "epoch_s 1795000000.25\n"
    "source proc ok\n"
    "source rapl unavailable /sys/class/powercap/intel-rapl:0/energy_uj: Permission denied\n"
    "source nvml ok libnvidia-ml.so.1 driver 580.65.06\n"
    "gpu_device 0 GPU-1b2c NVIDIA H100 80GB HBM3\n"
    "gpu_device 1 GPU-9f8e NVIDIA H100 80GB HBM3\n"
    "rapl_zone 0 package package-0\n"
    "proc 0 0.5 12.5 2\n"
    "gpu 0 0 0 70.5 0 0 512 1980 34 0x1\n"
    "gpu 0 1 0 71 0 0 512 1980 35 0x1\n"
    "rapl 0 0 0\n"
    "proc 1.001 1.5 900 5\n"
    "gpu 1.001 0 650.25 640 98 40 70000 1755 61 0x4\n"
    "gpu 1.001 1 - - 97 - 69000 - 60 -\n"
    "rapl 1.001 0 210.5\n"
    "end 1.002\n";

Error error_of(const std::string& text) {
  try {
    parse_telemetry(text, "run/telemetry.n1");
  } catch (const Error& e) {
    return e;
  }
  FAIL("no error for: " << text);
  throw;
}

}  // namespace

TEST_CASE("telemetry log: every record of format 1 is read with its values") {
  const auto log = parse_telemetry(kTwoGpus, "telemetry.gpu-node-1");
  CHECK(log.node == "gpu-node-1");
  CHECK(log.interval_ms == 1000);
  CHECK(log.epoch_s == Approx(1795000000.25));
  REQUIRE(log.sources.size() == 3);
  CHECK(log.sources[1].source == "rapl");
  CHECK(log.sources[1].state == "unavailable");
  CHECK(log.sources[1].detail == "/sys/class/powercap/intel-rapl:0/energy_uj: Permission denied");
  REQUIRE(log.gpus.size() == 2);
  CHECK(log.gpus[0].uuid == "GPU-1b2c");
  CHECK(log.gpus[0].name == "NVIDIA H100 80GB HBM3");
  REQUIRE(log.zones.size() == 1);
  CHECK(log.zones[0].kind == "package");
  REQUIRE(log.proc.size() == 2);
  CHECK(log.proc[1].cpu_s == 1.5);
  CHECK(log.proc[1].rss_mib == 900);
  CHECK(log.proc[1].nprocs == 5);
  REQUIRE(log.gpu.size() == 4);
  CHECK(*log.gpu[2].energy_j == 650.25);
  CHECK(*log.gpu[2].throttle == 0x4);
  CHECK_FALSE(log.gpu[3].energy_j.has_value());
  CHECK_FALSE(log.gpu[3].throttle.has_value());
  CHECK(*log.gpu[3].util_pct == 97);
  REQUIRE(log.rapl.size() == 2);
  CHECK(*log.rapl[1].energy_j == 210.5);
  REQUIRE(log.end_t.has_value());
  CHECK(*log.end_t == Approx(1.002));
  CHECK_FALSE(log.torn_last_line);
}

TEST_CASE("telemetry log: a zone the sampler could not read at one sample is - there and the rest reads") {
  const auto log = parse_telemetry("sweep-telemetry format=1\nrapl_zone 0 package p\nrapl 0 0 0\nrapl 1 0 -\n"
                                   "rapl 2 0 7.5\nend 2\n", "f");
  REQUIRE(log.rapl.size() == 3);
  CHECK_FALSE(log.rapl[1].energy_j.has_value());
  CHECK(*log.rapl[2].energy_j == 7.5);
}

TEST_CASE("telemetry log: a file without end is read as cut short") {
  const auto log = parse_telemetry("sweep-telemetry format=1\nnode n\nproc 0 0 1 1\nproc 1 1 1 1\n", "f");
  CHECK_FALSE(log.end_t.has_value());
  CHECK(log.proc.size() == 2);
}

TEST_CASE("telemetry log: a last line cut mid-write is dropped and said so") {
  const auto log = parse_telemetry("sweep-telemetry format=1\nnode n\nproc 0 0 1 1\nproc 1 1", "f");
  CHECK(log.proc.size() == 1);
  CHECK(log.torn_last_line);
  // The same line with its newline was written whole: it is an error.
  CHECK(error_of("sweep-telemetry format=1\nnode n\nproc 0 0 1 1\nproc 1 1\n").where().line == 4);
}

TEST_CASE("telemetry log: malformed records name file:line:column and what was expected") {
  struct Case {
    std::string text;
    int line, column;
    std::string expected;
  };
  const std::vector<Case> cases{
      {"sweep-telemetry format=3\n", 1, 1, "this sweep reads formats 1 and 2"},
      {"node n\n", 1, 1, "sweep-telemetry format=2"},
      {"sweep-telemetry format=1\nwatts 3\n", 2, 1, "a record: node, interval_ms"},
      {"sweep-telemetry format=2\nproc 0 0 1 1\n", 2, 1, "proc <t> <cpu_s> <rss_mib> <nprocs> <peak_mib>"},
      {"sweep-telemetry format=1\nproc 0 0 1 1 5\n", 2, 1, "proc <t> <cpu_s> <rss_mib> <nprocs>"},
      {"sweep-telemetry format=2\nproc 0 0 1 1 x\n", 2, 14, "peak MiB or -"},
      {"sweep-telemetry format=1\nproc 0 x 1 1\n", 2, 8, "CPU seconds"},
      {"sweep-telemetry format=1\nproc 0 -1 1 1\n", 2, 8, "CPU seconds"},
      {"sweep-telemetry format=1\nproc 0 nan 1 1\n", 2, 8, "CPU seconds"},
      {"sweep-telemetry format=1\nproc 2 0 1 1\nproc 1 0 1 1\n", 3, 6, "no earlier than"},
      {"sweep-telemetry format=1\ngpu 0 3 - - - - - - - -\n", 2, 7, "declared by an earlier gpu_device"},
      {"sweep-telemetry format=1\nrapl 0 0 1\n", 2, 8, "declared by an earlier rapl_zone"},
      {"sweep-telemetry format=1\ngpu_device 0 U a\ngpu 0 0 - - - - - - - 12\n", 3, 23, "hex"},
      {"sweep-telemetry format=1\ngpu_device 0 U a\ngpu 0 0 - -\n", 3, 1, "gpu <t> <index>"},
      {"sweep-telemetry format=1\ngpu_device 0 U a\ngpu_device 0 V b\n", 3, 12, "not declared before"},
      {"sweep-telemetry format=1\nsource disk ok\n", 2, 8, "proc, rapl or nvml"},
      {"sweep-telemetry format=1\nsource nvml maybe\n", 2, 13, "ok, off or unavailable"},
      {"sweep-telemetry format=1\nrapl_zone 0 gpu x\n", 2, 13, "package, dram or other"},
      {"sweep-telemetry format=1\nend 1\nproc 2 0 1 1\n", 3, 1, "nothing after the end"},
      {"sweep-telemetry format=1\nproc  0 0 1 1\n", 2, 1, "proc <t>"},
      {"sweep-telemetry format=1\nproc 0 1e16 1 1\n", 2, 8, "from 0 to 1e15"},
      {"sweep-telemetry format=1\nproc 0 5 1 1\nproc 1 4 1 1\n", 3, 8, "no smaller than the previous sample's 5"},
      {"sweep-telemetry format=1\nrapl_zone 0 package p\nrapl 0 0 9\nrapl 1 0 8\n", 4, 10, "no smaller"},
      {"sweep-telemetry format=1\ngpu_device 0 U a\ngpu 0 0 9 - - - - - - -\ngpu 1 0 8 - - - - - - -\n", 4, 9,
       "no smaller"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    const auto e = error_of(c.text);
    CHECK(e.kind() == ErrorKind::io);
    CHECK(e.where().file == "run/telemetry.n1");
    CHECK(e.where().line == c.line);
    CHECK(e.where().column == c.column);
    CHECK_THAT(e.message(), Catch::Contains(c.expected));
  }
}

TEST_CASE("telemetry log: at most 1024 GPUs or zones are declared, so a planted file reads in linear time") {
  std::string text = "sweep-telemetry format=1\n";
  for (int i = 0; i < 1024; ++i) text += "gpu_device " + std::to_string(i) + " U x\n";
  CHECK(parse_telemetry(text, "f").gpus.size() == 1024);
  const auto e = error_of(text + "gpu_device 1024 U x\n");
  CHECK(e.where().line == 1026);
  CHECK_THAT(e.message(), Catch::Contains("at most 1024 GPUs"));
}

TEST_CASE("telemetry log: an empty file is an error at its first line") {
  CHECK(error_of("").where().line == 1);
}

TEST_CASE("telemetry log: format 2's proc record has the peak, format 1's none") {
  const auto two = parse_telemetry("sweep-telemetry format=2\nnode n\nproc 0 0 1 1 -\nproc 1 1 2 1 300.5\n", "f");
  REQUIRE(two.proc.size() == 2);
  CHECK_FALSE(two.proc[0].peak_mib);
  CHECK(two.proc[1].peak_mib == Approx(300.5));
  const auto one = parse_telemetry("sweep-telemetry format=1\nnode n\nproc 0 0 1 1\n", "f");
  REQUIRE(one.proc.size() == 1);
  CHECK_FALSE(one.proc[0].peak_mib);
}
