#include "telemetry/sampler_options.h"

#include <catch2/catch.hpp>

#include "util/error.h"

using namespace sweep::telemetry;

TEST_CASE("telemetry sampler_options: defaults and every option") {
  const auto d = parse_sampler_options({"--out", "f"});
  CHECK(d.interval_ms == 1000);
  CHECK(d.sources == std::set<std::string>{"proc", "rapl", "nvml"});
  CHECK(d.sysfs_root == "/sys");
  CHECK_FALSE(d.daemon);
  const auto o = parse_sampler_options({"--out", "telemetry.n1", "--interval-ms", "50", "--sources", "proc,nvml", "--marker",
                                        "SWEEP_RUN_ID=12", "--root", "4242", "--sysfs-root", "/tmp/s", "--daemon"});
  CHECK(o.out == "telemetry.n1");
  CHECK(o.interval_ms == 50);
  CHECK(o.sources == std::set<std::string>{"proc", "nvml"});
  CHECK(o.marker == "SWEEP_RUN_ID=12");
  CHECK(o.root_pid == 4242);
  CHECK(o.sysfs_root == "/tmp/s");
  CHECK(o.daemon);
  CHECK(parse_sampler_options({"--help"}).mode == SamplerOptions::Mode::help);
  const auto stop = parse_sampler_options({"stop", "77"});
  CHECK(stop.mode == SamplerOptions::Mode::stop);
  CHECK(stop.stop_pid == 77);
}

TEST_CASE("telemetry sampler_options: errors name the option and what it expected") {
  using Catch::Contains;
  CHECK_THROWS_WITH(parse_sampler_options({}), Contains("--out FILE is required"));
  CHECK_THROWS_WITH(parse_sampler_options({"--out", "f", "--interval-ms", "49"}), Contains("from 50 to 60000, got \"49\""));
  CHECK_THROWS_WITH(parse_sampler_options({"--out", "f", "--interval-ms", "60001"}), Contains("--interval-ms"));
  CHECK_THROWS_WITH(parse_sampler_options({"--out", "f", "--interval-ms", "1s"}), Contains("got \"1s\""));
  CHECK_THROWS_WITH(parse_sampler_options({"--out", "f", "--sources", "proc,gpu"}), Contains("unknown source \"gpu\""));
  CHECK_THROWS_WITH(parse_sampler_options({"--out", "f", "--marker", "SWEEP_RUN_ID"}), Contains("expected NAME=VALUE"));
  CHECK_THROWS_WITH(parse_sampler_options({"--out"}), Contains("--out: expected a value"));
  CHECK_THROWS_WITH(parse_sampler_options({"--out", "f", "--frobnicate"}), Contains("unknown option \"--frobnicate\""));
  CHECK_THROWS_WITH(parse_sampler_options({"stop"}), Contains("expected one PID"));
  try {
    parse_sampler_options({"--interval-ms", "5"});
  } catch (const sweep::Error& e) {
    CHECK(e.kind() == sweep::ErrorKind::usage);
  }
}
