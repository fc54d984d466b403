// The job-script text that samples network counters, run in a real bash against this machine's /sys.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "exec/capture.h"
#include "runner/nic_counters.h"
#include "runner/nic_sampling.h"
#include "temp_dir.h"

using namespace sweep;
using namespace sweep::runner;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Runs start, a workload exiting with `status`, end, then prints $? — with no PATH, so that any
/// process the sampling tried to start would fail with "command not found" on stderr.
exec::Captured run_sampling(const TempDir& dir, const NicSampling& s, int status) {
  const std::string script = "export SWEEP_RUN_DIR='" + dir.path.string() + "'\ncd / || exit 97\nPATH=/nonexistent\n" +
                             "SLURMD_NODENAME=node7\n" +
                             s.start + "\n(exit " + std::to_string(status) + ")\n" + s.end + "\necho \"status=$?\"\n";
  std::ofstream(dir.file("run.sh")) << script;
  const auto r = exec::capture({"bash", dir.file("run.sh")});
  REQUIRE(r);
  return *r;
}

}  // namespace

TEST_CASE("local sampling writes a start and an end snapshot with builtins only and keeps the status") {
  TempDir dir;
  const auto r = run_sampling(dir, nic_sampling("local", true, {"lo", "mlx5_0/1"}), 7);
  CHECK(r.err == "");
  CHECK(r.out == "status=7\n");
  const NicSnapshot start = parse_nic_snapshot(slurp(dir.file("nic.start.node7")), "nic.start.node7");
  const NicSnapshot end = parse_nic_snapshot(slurp(dir.file("nic.end.node7")), "nic.end.node7");
  CHECK(start.moment == "start");
  CHECK(end.moment == "end");
  CHECK(start.node == "node7");
  CHECK(start.interfaces == std::vector<std::string>{"lo", "mlx5_0/1"});
  CHECK(end.time_s >= start.time_s);
  CHECK(start.time_s > 1.6e9);
  if (std::filesystem::exists("/sys/class/net/lo/statistics/tx_bytes")) {
    const auto lo = std::find_if(start.counters.begin(), start.counters.end(), [](const NicCounter& c) { return c.name == "lo"; });
    REQUIRE(lo != start.counters.end());
    CHECK(lo->type == 772);
  }
}

TEST_CASE("slurm sampling of a one-node job is the local node's") {
  TempDir dir;
  const NicSampling s = nic_sampling("slurm", true, {});
  CHECK(s.start.find("srun --ntasks-per-node=1") != std::string::npos);
  const auto r = run_sampling(dir, s, 0);
  CHECK(r.err == "");
  CHECK(r.out == "status=0\n");
  CHECK(std::filesystem::exists(dir.file("nic.start.node7")));
  CHECK(std::filesystem::exists(dir.file("nic.end.node7")));
}

TEST_CASE("counters off: no text") {
  const NicSampling s = nic_sampling("local", false, {"lo"});
  CHECK(s.start.empty());
  CHECK(s.end.empty());
}
