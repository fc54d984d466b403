// Which process the `proc` source counts a gone process's CPU time in (ProcSampler::sample), on a /proc
// stand-in: <pid>/stat files under a temporary directory, rewritten between scans as a scan would
// have read them. A stand-in, because the cases are races of a real scan (a child reaped between the
// reads of its parent and of itself) that real processes give only by chance.
#include <unistd.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "telemetry/proc_sampler.h"
#include "temp_dir.h"

using sweep::telemetry::ProcSampler;

namespace {

struct Times {
  std::uint64_t utime = 0, stime = 0, cutime = 0, cstime = 0;  // clock ticks
};

/// A /proc of stand-in processes, each one <pid>/stat line (proc(5)) and nothing else.
struct ProcStandin {
  TempDir dir;
  void set(int pid, int ppid, const Times& t, std::uint64_t starttime) const {
    std::filesystem::create_directories(dir.file(std::to_string(pid)));
    std::ofstream(dir.file(std::to_string(pid) + "/stat"))
        << pid << " (standin) S " << ppid << " 0 0 0 0 0 0 0 0 0 " << t.utime << " " << t.stime << " " << t.cutime
        << " " << t.cstime << " 20 0 1 0 " << starttime << " 0 0\n";
  }
  void remove(int pid) const { std::filesystem::remove_all(dir.file(std::to_string(pid))); }
};

double seconds(std::uint64_t ticks) { return static_cast<double>(ticks) / static_cast<double>(::sysconf(_SC_CLK_TCK)); }

// Pids no stand-in shares with this process (never selected: the sampler's own).
const int kJob = static_cast<int>(::getpid()) + 1;
const int kShell = kJob + 1;
const int kLoop = kJob + 2;

}  // namespace

TEST_CASE("telemetry sampler attribution: a child reaped in mid-scan is counted once") {
  ProcStandin proc;
  ProcSampler sampler(proc.dir.path.string(), "", kJob);
  proc.set(kJob, 1, {10, 0, 0, 0}, 500);
  proc.set(kLoop, kJob, {150, 0, 0, 0}, 510);
  CHECK(sampler.sample().cpu_s == Approx(seconds(160)));
  // The scan read the job before it reaped the loop, and the loop's pid after: gone, the job's cutime
  // not grown yet.
  proc.remove(kLoop);
  CHECK(sampler.sample().cpu_s == Approx(seconds(160)));
  // The next scan sees the loop's whole time (190 + 10) in the job's cutime + cstime.
  proc.set(kJob, 1, {10, 0, 190, 10}, 500);
  CHECK(sampler.sample().cpu_s == Approx(seconds(10 + 200)));
  CHECK(sampler.sample().cpu_s == Approx(seconds(10 + 200)));
}

TEST_CASE("telemetry sampler attribution: a child and its parent gone in one interval are counted once") {
  ProcStandin proc;
  ProcSampler sampler(proc.dir.path.string(), "", kJob);
  proc.set(kJob, 1, {10, 0, 0, 0}, 500);
  proc.set(kShell, kJob, {5, 0, 0, 0}, 505);
  proc.set(kLoop, kShell, {150, 0, 0, 0}, 510);
  CHECK(sampler.sample().cpu_s == Approx(seconds(165)));
  // The shell waited for the loop (200 ticks in all) and ended; the job waited for the shell: its
  // cutime holds both.
  proc.remove(kLoop);
  proc.remove(kShell);
  proc.set(kJob, 1, {10, 0, 5 + 200, 0}, 500);
  CHECK(sampler.sample().cpu_s == Approx(seconds(10 + 205)));
}

TEST_CASE("telemetry sampler attribution: a child its parent did not wait for stays counted") {
  ProcStandin proc;
  ProcSampler sampler(proc.dir.path.string(), "", kJob);
  proc.set(kJob, 1, {10, 0, 0, 0}, 500);
  proc.set(kLoop, kJob, {150, 0, 0, 0}, 510);
  CHECK(sampler.sample().cpu_s == Approx(seconds(160)));
  proc.remove(kLoop);  // reaped without a trace in the job's cutime (SIGCHLD ignored)
  for (int scan = 0; scan < 3; ++scan) CHECK(sampler.sample().cpu_s == Approx(seconds(160)));
  // Later growth is another child's, counted in the job's.
  proc.set(kJob, 1, {10, 0, 150, 0}, 500);
  CHECK(sampler.sample().cpu_s == Approx(seconds(160 + 150)));
}
