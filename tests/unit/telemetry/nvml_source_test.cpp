// The nvml source on the NVML stand-in (tests/support/nvml_standin.cpp, a test library implementing the
// NVML calls the sampler uses from a script), loaded by the same dlopen code that loads libnvidia-ml.
#include "telemetry/nvml_source.h"

#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>

#include "sampler_process.h"
#include "telemetry/summary.h"
#include "temp_dir.h"
#include "util/error.h"

using namespace sweep::telemetry;
using namespace sweep::telemetry::testing;

namespace {

/// A stand-in script in a temporary directory, named to the stand-in by SWEEP_NVML_STANDIN.
struct NvmlScript {
  TempDir dir;
  std::string path = dir.file("nvml-standin.txt");
  explicit NvmlScript(const std::string& text) {
    std::ofstream(path) << text;
    ::setenv("SWEEP_NVML_STANDIN", path.c_str(), 1);
  }
  ~NvmlScript() { ::unsetenv("SWEEP_NVML_STANDIN"); }
};

const char* kTwoGpus =
    "gpu GPU-8f2c1111 100 97 40 70000 1980 61 0x4 NVIDIA H100 80GB HBM3\n"
    "gpu GPU-1b2c2222 250 50 20 1024 1410 55 0x0 NVIDIA H100 80GB HBM3\n";

}  // namespace

TEST_CASE("telemetry nvml stand-in: devices, CUDA_VISIBLE_DEVICES, values and the energy counter") {
  NvmlScript script(kTwoGpus);
  NvmlSource nvml(kNvmlStandin, std::string("GPU-1b2c"));
  REQUIRE(nvml.gpus().size() == 1);
  CHECK(nvml.gpus()[0].index == 1);
  CHECK(nvml.gpus()[0].uuid == "GPU-1b2c2222");
  CHECK(nvml.gpus()[0].name == "NVIDIA H100 80GB HBM3");
  const auto first = nvml.sample(0);
  REQUIRE(first.size() == 1);
  CHECK(*first[0].energy_j == 0.0);
  CHECK(*first[0].power_w == Approx(250));
  CHECK(*first[0].util_pct == 50);
  CHECK(*first[0].mem_util_pct == 20);
  CHECK(*first[0].mem_mib == Approx(1024));
  CHECK(*first[0].sm_mhz == 1410);
  CHECK(*first[0].temp_c == 55);
  CHECK(*first[0].throttle == 0u);
  CHECK(NvmlSource(kNvmlStandin, std::nullopt).gpus().size() == 2);
}

TEST_CASE("telemetry nvml stand-in: a failing call leaves its field empty, the others are read") {
  NvmlScript script(std::string(kTwoGpus) + "fail nvmlDeviceGetPowerUsage\nfail nvmlDeviceGetTotalEnergyConsumption\n");
  NvmlSource nvml(kNvmlStandin, std::nullopt);
  const auto s = nvml.sample(0);
  REQUIRE(s.size() == 2);
  CHECK_FALSE(s[0].power_w);
  CHECK_FALSE(s[0].energy_j);
  CHECK(*s[0].throttle == 0x4u);
}

TEST_CASE("telemetry nvml stand-in: a GPU NVML will not give this process is left out, the others sampled") {
  NvmlScript script(std::string(kTwoGpus) + "fail nvmlDeviceGetUUID 0\n");
  NvmlSource nvml(kNvmlStandin, std::nullopt);
  REQUIRE(nvml.gpus().size() == 1);
  CHECK(nvml.gpus()[0].index == 1);
  CHECK(nvml.sample(0).size() == 1);
  const NvmlSource named(kNvmlStandin, std::string("0,1"));  // 0 named but not given: 1 still sampled
  REQUIRE(named.gpus().size() == 1);
  CHECK(named.gpus()[0].uuid == "GPU-1b2c2222");
}

TEST_CASE("telemetry nvml stand-in: a missing library or a failed init is an error with the reason") {
  using Catch::Contains;
  CHECK_THROWS_WITH(NvmlSource("/nonexistent/libnvidia-ml.so.1", std::nullopt), Contains("/nonexistent/libnvidia-ml.so.1"));
  NvmlScript script("init_error 9\n");
  CHECK_THROWS_WITH(NvmlSource(kNvmlStandin, std::nullopt), Contains("nvmlInit_v2: NVML_ERROR_DRIVER_NOT_LOADED"));
  CHECK_THROWS_WITH(NvmlSource("libc.so.6", std::nullopt), Contains("libc.so.6: no nvmlInit_v2"));
}

TEST_CASE("telemetry nvml stand-in: ok with no GPU taken says so and why") {
  NvmlScript script("gpu GPU-8f2c1111 100 97 40 70000 1980 61 0x4 NVIDIA H100 80GB HBM3\n");
  TempDir dir;
  const std::string out = dir.file("telemetry.n1");
  const pid_t sampler = spawn({kSampler, "--out", out, "--interval-ms", "100", "--sources", "nvml"},
                              {{"SWEEP_NVML_LIBRARY", kNvmlStandin}, {"CUDA_VISIBLE_DEVICES", "MIG-1c2d"}});
  REQUIRE(wait_for_line(out, "source nvml"));
  ::kill(sampler, SIGTERM);
  REQUIRE(wait_for(sampler).exit_code == 0);
  const Log log = read_log(out);
  CHECK(log.gpus.empty());
  CHECK_THAT(log.sources[2].detail, Catch::Contains("0 GPUs sampled (CUDA_VISIBLE_DEVICES=MIG-1c2d names none NVML lists)"));
}

TEST_CASE("telemetry nvml stand-in: 100 W for about 2 s through the program: 100 W times the span, the integral within 5%", "[timing]") {
  NvmlScript script("gpu GPU-8f2c1111 100 97 40 70000 1980 61 0x4 NVIDIA H100 80GB HBM3\n");
  TempDir dir;
  const std::string out = dir.file("telemetry.n1");
  const pid_t sampler = spawn({kSampler, "--out", out, "--interval-ms", "100", "--sources", "nvml"},
                              {{"SWEEP_NVML_LIBRARY", kNvmlStandin}});
  REQUIRE(wait_for_line(out, "gpu "));
  ::usleep(2'000'000);
  ::kill(sampler, SIGTERM);
  REQUIRE(wait_for(sampler).exit_code == 0);
  const Log log = read_log(out);
  REQUIRE(log.sources[2].state == "ok");
  CHECK_THAT(log.sources[2].detail, Catch::EndsWith(": 1 GPU sampled"));
  REQUIRE(log.gpus.size() == 1);
  REQUIRE(log.gpu.size() >= 10);
  double integral = 0;
  for (std::size_t i = 1; i < log.gpu.size(); ++i) {
    integral += (log.gpu[i].t - log.gpu[i - 1].t) * (*log.gpu[i].power_w + *log.gpu[i - 1].power_w) / 2;
  }
  const double energy = *log.gpu.back().energy_j;
  // 100 W over the span the samples cover: about 2 s, longer when a busy machine delays the stop.
  const double span = log.gpu.back().t - log.gpu.front().t;
  INFO("span of the samples: " << span << " s");
  CHECK(span >= 1.9);
  CHECK(energy == Approx(100 * span).epsilon(0.10));
  CHECK(energy == Approx(integral).epsilon(0.05));
  CHECK(*log.gpu.back().throttle == 0x4u);
  // The run's metrics from this file (the summary of docs/telemetry.md) take the counter's joules.
  const Summary summary = summarize({log});
  const auto metric = [&](const std::string& name) {
    for (const auto& m : summary.metrics) {
      if (m.name == name) return m.value;
    }
    FAIL("no metric " << name);
    return 0.0;
  };
  CHECK(metric("gpu_energy_j") == Approx(energy));
  CHECK(metric("avg_gpu_power_w") == Approx(100).epsilon(0.05));
}

TEST_CASE("telemetry nvml stand-in: absent library through the program: source nvml unavailable, the rest sampled") {
  TempDir dir;
  const std::string out = dir.file("telemetry.n1");
  const auto [code, pid] = run_capture({kSampler, "--daemon", "--out", out}, {{"SWEEP_NVML_LIBRARY", "libnvidia-ml-absent.so.1"}});
  REQUIRE(code == 0);
  CHECK(run_capture({kSampler, "stop", pid.substr(0, pid.size() - 1)}).first == 0);
  const Log log = read_log(out);
  CHECK(log.sources[2].state == "unavailable");
  CHECK(log.sources[2].detail.find("libnvidia-ml-absent.so.1") != std::string::npos);
  CHECK(log.proc.size() == 2);
  CHECK(log.end_t);
}
