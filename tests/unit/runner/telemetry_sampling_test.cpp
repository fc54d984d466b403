// The job-script text that runs the telemetry sampler, run in a real bash. The sampler here is a
// stand-in script (a test double, named so) that records how it was called and acts as the contract of
// sweep-telemetry says (--daemon prints its pid once running; `stop PID` ends it); tests/e2e's
// telemetry_test runs the real one.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "exec/capture.h"
#include "runner/telemetry_sampling.h"
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

/// A stand-in sampler: logs its arguments to <dir>/calls; `--daemon` starts a sleeping child that writes
/// --out and prints its pid; `stop PID` kills it. With <dir>/refuse present it fails as a sampler would.
std::string stand_in(const TempDir& dir) {
  const std::string path = dir.file("sampler-stand-in");
  std::ofstream(path) << "#!/bin/bash\n"
                         "d=$(dirname \"$0\"); printf '%s\\n' \"$*\" >> \"$d/calls\"\n"
                         "if [ -e \"$d/refuse\" ]; then echo 'sweep-telemetry: --sources: unknown source' >&2; exit 2; fi\n"
                         "if [ \"$1\" = stop ]; then kill \"$2\"; exit 0; fi\n"
                         "while [ \"$1\" != --out ]; do shift; done\n"
                         "printf 'sweep-telemetry format=1\\n' > \"$2\"\n"
                         "sleep 30 > /dev/null 2>&1 < /dev/null & echo $!\n";
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path;
}

/// start, a workload exiting with `status`, end, then "status=$?".
exec::Captured run_sampling(const TempDir& dir, const TelemetrySampling& s, int status) {
  const std::string script = "export SWEEP_RUN_DIR='" + dir.path.string() + "' SWEEP_RUN_ID=42\ncd / || exit 97\n" +
                             "SLURMD_NODENAME=node7\n" + s.start + "\n(exit " + std::to_string(status) + ")\n" + s.end +
                             "\necho \"status=$?\"\n";
  std::ofstream(dir.file("run.sh")) << script;
  const auto r = exec::capture({"bash", dir.file("run.sh")});
  REQUIRE(r);
  return *r;
}

}  // namespace

TEST_CASE("local telemetry starts the daemon with the setting, stops it, and keeps the status") {
  TempDir dir;
  spec::Telemetry t;
  t.interval_ms = 250;
  t.sources = {"proc", "nvml"};
  const auto r = run_sampling(dir, telemetry_sampling("local", t, stand_in(dir)), 7);
  CHECK(r.err == "");
  CHECK(r.out == "status=7\n");
  CHECK(slurp(dir.file("telemetry.node7")) == "sweep-telemetry format=1\n");
  CHECK_FALSE(std::filesystem::exists(dir.file(kTelemetryFailedFile)));
  const std::string calls = slurp(dir.file("calls"));
  CHECK_THAT(calls, Catch::StartsWith("--daemon --out " + dir.file("telemetry.node7") +
                                      " --interval-ms 250 --sources proc,nvml --marker SWEEP_RUN_DIR=" + dir.path.string() + " --root "));
  CHECK_THAT(calls, Catch::Contains("\nstop "));
}

TEST_CASE("a one-node Slurm job's telemetry is the local node's") {
  TempDir dir;
  const TelemetrySampling s = telemetry_sampling("slurm", spec::Telemetry{}, stand_in(dir));
  CHECK_THAT(s.start, Catch::Contains("srun --overlap --job-name=sweep-telemetry --ntasks-per-node=1"));
  const auto r = run_sampling(dir, s, 0);
  CHECK(r.err == "");
  CHECK(r.out == "status=0\n");
  CHECK(std::filesystem::exists(dir.file("telemetry.node7")));
  CHECK_THAT(slurp(dir.file("calls")), Catch::Contains("--sources proc,rapl,nvml"));
}

TEST_CASE("a missing or failing sampler leaves telemetry_failed and the workload runs as before") {
  TempDir dir;
  const auto missing = run_sampling(dir, telemetry_sampling("local", spec::Telemetry{}, dir.file("no-such-sampler")), 3);
  CHECK(missing.err == "");
  CHECK(missing.out == "status=3\n");
  CHECK(slurp(dir.file(kTelemetryFailedFile)) == "the sampler " + dir.file("no-such-sampler") + " is not an executable file\n");

  TempDir other;
  std::ofstream(other.file("refuse")) << "";
  const auto refused = run_sampling(other, telemetry_sampling("local", spec::Telemetry{}, stand_in(other)), 0);
  CHECK(refused.err == "");
  CHECK(refused.out == "status=0\n");
  CHECK(slurp(other.file(kTelemetryFailedFile)) == "sweep-telemetry: --sources: unknown source\n");
  CHECK_FALSE(std::filesystem::exists(other.file("telemetry.node7")));
  CHECK(slurp(other.file("calls")).find("stop") == std::string::npos);  // nothing to stop
}

TEST_CASE("telemetry off: no text") {
  spec::Telemetry t;
  t.enabled = false;
  const TelemetrySampling s = telemetry_sampling("slurm", t, "/x/sweep-telemetry");
  CHECK(s.start.empty());
  CHECK(s.end.empty());
}
