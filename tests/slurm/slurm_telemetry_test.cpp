// Telemetry on the development cluster (issue 36): a two-node job's sampler step writes telemetry.n1
// and telemetry.n2, stopped by a SIGTERM to its tasks (scancel --signal=TERM on the step: both files end
// with `end`), and cpu_time_s is summed over them; a one-node job's daemon writes its node's file.
// The dev cluster's two nodes share one kernel, so each node's sampler sees the processes of the run
// on both (the marker SWEEP_RUN_DIR is the same): each file holds the CPU time of both tasks. On a real
// cluster each node sees only its own.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "slurm/slurm_harness.h"

using namespace slurmtest;

namespace {

/// The last `proc` record's CPU seconds in a telemetry file.
double last_cpu_s(const std::string& path) {
  std::ifstream in(path);
  double cpu = -1;
  for (std::string line; std::getline(in, line);)
    if (line.rfind("proc ", 0) == 0) {
      std::istringstream words(line.substr(5));
      double t = 0;
      words >> t >> cpu;
    }
  return cpu;
}

const char* kBusy = "\"python3 -c 'import time\\nt = time.process_time()\\nwhile time.process_time() - t < 1.5: pass'\"";

}  // namespace

TEST_CASE("telemetry: a two-node job's samplers write telemetry.n1 and telemetry.n2, cpu_time_s summed") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "tel2");
  box.write("tel2.yaml", std::string("name: tel2\nexecutor: slurm\nmatrix: {n: [1]}\n"
                                     "resources: {nodes: 2, ntasks-per-node: 1, time: 5}\n"
                                     "telemetry: {interval_ms: 200}\n"
                                     "workload:\n  launcher: srun\n  command: ") + kBusy + "\n");
  const auto r = box.sweep({"run", "tel2.yaml", "--label", L, "--poll-max", "1"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  REQUIRE(query(box, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == "1");
  const std::string dir = query(box, "SELECT run_dir FROM runs");
  CHECK(query(box, "SELECT value FROM run_provenance WHERE key = 'telemetry.files'") == "telemetry.n1 telemetry.n2");
  CHECK(query(box, "SELECT count(*) FROM run_provenance WHERE key IN ('telemetry.cut_short', 'telemetry.error')") == "0");
  // The job's nodes as the job script recorded them (scontrol show hostnames): ingest reads only theirs.
  CHECK(e2e::read_file(dir + "/telemetry_nodes") == "n1\nn2\n");
  for (const char* node : {"n1", "n2"}) {
    const std::string text = e2e::read_file(dir + "/telemetry." + node);
    INFO(text);
    CHECK(text.find(std::string("\nnode ") + node + "\n") != std::string::npos);
    CHECK(text.find("\nend ") != std::string::npos);  // stopped by SIGTERM, not killed
    CHECK(last_cpu_s(dir + "/telemetry." + node) >= 1.4);  // at least this node's task's 1.5 s
  }
  const double cpu = std::stod(query(box, "SELECT value FROM metrics WHERE name = 'cpu_time_s'"));
  CHECK(cpu == Approx(last_cpu_s(dir + "/telemetry.n1") + last_cpu_s(dir + "/telemetry.n2")).epsilon(0.01));
  CHECK(cpu >= 3.0);
  CHECK(query(box, "SELECT unit FROM metrics WHERE name = 'cpu_time_s'") == "s");
}

TEST_CASE("telemetry: a one-node job's sampler writes its node's file and the workload's CPU time") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "tel1");
  box.write("tel1.yaml", std::string("name: tel1\nexecutor: slurm\nmatrix: {n: [1]}\nresources: {time: 5}\n"
                                     "telemetry: {interval_ms: 100}\nworkload:\n  command: ") + kBusy + "\n");
  const auto r = box.sweep({"run", "tel1.yaml", "--label", L, "--poll-max", "1"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string files = query(box, "SELECT value FROM run_provenance WHERE key = 'telemetry.files'");
  CHECK((files == "telemetry.n1" || files == "telemetry.n2"));
  const double cpu = std::stod(query(box, "SELECT value FROM metrics WHERE name = 'cpu_time_s'"));
  CHECK(cpu >= 1.35);
  CHECK(cpu <= 2.5);
  CHECK(e2e::read_file(query(box, "SELECT run_dir FROM runs") + "/" + files).find("\nend ") != std::string::npos);
  CHECK(e2e::read_file(query(box, "SELECT run_dir FROM runs") + "/telemetry_nodes") == files.substr(10) + "\n");
}
