// The reports' hardware line shows only what the runs asked for (docs/reports.md, "The hardware in the
// provenance"): a CPU-only python3 campaign on a machine whose loader finds NCCL (the build machines:
// /usr/local/cuda's) reports its CPU and no NCCL, although every run's provenance keeps the node's NCCL;
// the same campaign asking for a GPU (resources.gpus, from the CUDA_VISIBLE_DEVICES sweep was started
// with, so no GPU is needed) reports it.
#include <catch2/catch.hpp>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "e2e/harness.h"

using namespace e2e;

namespace {

std::string experiment(const std::string& resources) {
  return "name: hw\nmatrix:\n  x: [1, 2]\nrepetitions: 2\n" + resources +
         "workload:\n  command: python3 -c 'print(\"y=\" + str({{x}} * 2))'\n"
         "metrics:\n  - {name: y, better: higher, regex: 'y=(?<value>[0-9]+)'}\n";
}

/// This machine's NCCL as the bundled nccl-version reports it; "" without one.
std::string node_nccl() {
  const auto nccl = shell(NCCL_VERSION_BIN);
  std::string version = nccl.exit_code == 0 ? nccl.out : "";
  while (!version.empty() && version.back() == '\n') version.pop_back();
  return version;
}

bool json_has_key(const nlohmann::json& hardware, const std::string& key) {
  for (const auto& h : hardware)
    if (h["key"] == key) return true;
  return false;
}

}  // namespace

TEST_CASE("a CPU-only campaign's reports carry no NCCL or GPU line but one that asked for GPUs does") {
  const std::string version = node_nccl();
  INFO("nccl-version: " << version);
  Sandbox box;
  box.write("cpu.yaml", experiment(""));
  const auto run = box.sweep({"run", "cpu.yaml", "--label", "cpu"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  auto db = box.db();
  // The database keeps everything the runs recorded: the node's NCCL, and that no run asked for a GPU.
  if (!version.empty()) CHECK(scalar(db, "SELECT count(*) FROM run_provenance WHERE key = 'nccl.version'") == 4);
  CHECK(scalar(db, "SELECT count(*) FROM run_provenance WHERE key = 'gpus_requested' AND value = 'none'") == 4);
  REQUIRE(box.sweep({"report", "cpu", "--no-figures"}).exit_code == 0);
  const std::string md = read_file(box.path("reports/cpu/report.md"));
  CHECK_THAT(md, Catch::Contains("Hardware: CPU ") && Catch::Contains("; GPU none requested.\n") && !Catch::Contains("NCCL"));
  const std::string html = read_file(box.path("reports/cpu/report.html"));
  CHECK_THAT(html, Catch::Contains("<tr><th>GPU</th><td>none requested</td></tr>") && !Catch::Contains("NCCL"));
  const auto j = nlohmann::json::parse(read_file(box.path("reports/cpu/report.json")));
  CHECK(j["version"] == 8);
  CHECK_FALSE(json_has_key(j["hardware"], "nccl.version"));
  CHECK(json_has_key(j["hardware"], "cpu_model"));
  CHECK(json_has_key(j["hardware"], "gpus_requested"));

  // The same runs asking for a GPU each: the GPU "0" of the CUDA_VISIBLE_DEVICES sweep is given.
  box.write("gpu.yaml", experiment("resources:\n  gpus: 1\n"));
  ::setenv("CUDA_VISIBLE_DEVICES", "0", 1);
  const auto gpu = box.sweep({"run", "gpu.yaml", "--label", "gpu"});
  ::unsetenv("CUDA_VISIBLE_DEVICES");
  INFO(gpu.out << gpu.err);
  REQUIRE(gpu.exit_code == 0);
  CHECK(scalar(db, "SELECT count(*) FROM run_provenance WHERE key = 'gpus_requested' AND value = 'resources.gpus=1'") == 4);
  REQUIRE(box.sweep({"report", "gpu", "--no-figures"}).exit_code == 0);
  const std::string gpu_md = read_file(box.path("reports/gpu/report.md"));
  CHECK_THAT(gpu_md, !Catch::Contains("GPU none requested"));
  if (version.empty()) return;  // a machine without NCCL has no line to show
  CHECK_THAT(gpu_md, Catch::Contains("; NCCL " + version + ".\n"));
  CHECK_THAT(read_file(box.path("reports/gpu/report.html")), Catch::Contains("<tr><th>NCCL</th><td>" + version + "</td></tr>"));
  CHECK(json_has_key(nlohmann::json::parse(read_file(box.path("reports/gpu/report.json")))["hardware"], "nccl.version"));
}
