// The `proc` source on real processes of known behaviour (telemetry_workload.cpp), through the built
// sweep-telemetry program and back through telemetry::parse_telemetry.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "sampler_process.h"
#include "telemetry/summary.h"
#include "temp_dir.h"

using namespace sweep::telemetry;
using namespace sweep::telemetry::testing;

namespace {

std::string unique_marker(const char* what) {
  return std::string("SWEEP_RUN_ID=test-") + what + "-" + std::to_string(::getpid());
}

/// Starts the sampler in the foreground on the proc source, and waits for its first sample.
pid_t start_sampler(const std::string& out, const std::vector<std::string>& selection) {
  std::vector<std::string> argv{kSampler, "--out", out, "--interval-ms", "100", "--sources", "proc"};
  argv.insert(argv.end(), selection.begin(), selection.end());
  const pid_t sampler = spawn(argv);
  REQUIRE(wait_for_line(out, "proc "));
  return sampler;
}

/// SIGTERM, then the log (which must end with `end`: the sampler exits 0 after writing it).
Log stop_and_read(pid_t sampler, const std::string& out) {
  ::kill(sampler, SIGTERM);
  CHECK(wait_for(sampler).exit_code == 0);
  const Log log = read_log(out);
  CHECK(log.end_t);
  return log;
}

/// Kills and reaps a process the test started when the test ends, passed or failed, so that none is left
/// holding ctest's output pipe open.
struct KilledAtEnd {
  pid_t pid;
  ~KilledAtEnd() {
    ::kill(pid, SIGKILL);
    wait_for(pid);
  }
};

double peak_rss(const Log& log) {
  double peak = 0;
  for (const auto& p : log.proc) peak = std::max(peak, p.rss_mib);
  return peak;
}

}  // namespace

TEST_CASE("telemetry sampler proc: a busy loop's CPU time, an unmarked one beside it not counted", "[timing]") {
  TempDir dir;
  const std::string out = dir.file("telemetry.n1");
  const std::string marker = unique_marker("busy");
  const pid_t sampler = start_sampler(out, {"--marker", marker});
  const auto eq = marker.find('=');
  const pid_t loop = spawn({kWorkload, "busy", "2"}, {{marker.substr(0, eq), marker.substr(eq + 1)}});
  const pid_t outsider = spawn({kWorkload, "busy", "2"}, {{"SWEEP_RUN_ID", "someone-else"}});
  const Ended ended = wait_for(loop);
  wait_for(outsider);
  const Log log = stop_and_read(sampler, out);
  REQUIRE(ended.exit_code == 0);
  REQUIRE(log.proc.size() >= 3);
  INFO("the loop's own CPU time (wait4, it runs until it has used 2 s): " << ended.cpu_s << " s");
  CHECK(ended.cpu_s >= 2.0);
  CHECK(log.proc.back().cpu_s == Approx(ended.cpu_s).margin(0.3));
  CHECK(log.proc.back().nprocs == 0);  // the loop has exited; its CPU time stays counted
}

TEST_CASE("telemetry sampler proc: a process tree's memory under --root (parent and child holding 256 MiB) until the root ends", "[timing]") {
  TempDir dir;
  const std::string out = dir.file("telemetry.n1");
  const pid_t tree = spawn({kWorkload, "tree", "256", "1.5"});
  const pid_t sampler = start_sampler(out, {"--root", std::to_string(tree)});
  REQUIRE(wait_for(tree).exit_code == 0);
  // The root gone, the sampler ends by itself within about a second, with a last sample and no `end`
  // (a SIGTERM sent now would race that check, so none is sent).
  CHECK(wait_for(sampler).exit_code == 0);
  const Log log = read_log(out);
  CHECK_FALSE(log.end_t);
  int most = 0;
  for (const auto& p : log.proc) most = std::max(most, p.nprocs);
  CHECK(most >= 2);  // the parent and its child (a moment of a fork, or a sanitizer's helper, may add one)
  CHECK(peak_rss(log) >= 256.0);
  CHECK(log.proc.back().nprocs == 0);
}

TEST_CASE("telemetry sampler proc: a process outside the marker and the root is not counted") {
  TempDir dir;
  const std::string out = dir.file("telemetry.n1");
  const pid_t outsider = spawn({kWorkload, "tree", "64", "1"});
  const pid_t sampler = start_sampler(out, {"--marker", unique_marker("nobody-marked"), "--root", "999999"});
  wait_for(outsider);
  const Log log = stop_and_read(sampler, out);
  CHECK(peak_rss(log) == 0.0);
  CHECK(log.proc.back().cpu_s == 0.0);
}

TEST_CASE("telemetry sampler proc: another user's process with the marker is not counted") {
  if (::getuid() != 0) {
    WARN("not root: cannot start a process as another user here; not tested");
    return;
  }
  TempDir dir;
  const std::string out = dir.file("telemetry.n1");
  const std::string marker = unique_marker("other-user");
  const pid_t sampler = start_sampler(out, {"--marker", marker});
  const auto eq = marker.find('=');
  const pid_t theirs = spawn({kWorkload, "hold", "64", "1"}, {{marker.substr(0, eq), marker.substr(eq + 1)}}, 65534);
  REQUIRE(wait_for(theirs).exit_code == 0);  // it ran, as nobody
  const Log log = stop_and_read(sampler, out);
  CHECK(peak_rss(log) == 0.0);
  CHECK(log.proc.back().nprocs == 0);
}

TEST_CASE("telemetry sampler proc: no sampler is counted, another one with the marker included", "[timing]") {
  TempDir dir;
  const std::string out = dir.file("telemetry.n1");
  const std::string marker = unique_marker("samplers");
  const auto eq = marker.find('=');
  const pid_t sampler = start_sampler(out, {"--marker", marker});
  const pid_t other = spawn({kSampler, "--out", dir.file("telemetry.n2"), "--interval-ms", "50", "--sources", "proc"},
                            {{marker.substr(0, eq), marker.substr(eq + 1)}});
  REQUIRE(wait_for_line(dir.file("telemetry.n2"), "proc "));
  const pid_t marked = spawn({kWorkload, "hold", "16", "0.5"}, {{marker.substr(0, eq), marker.substr(eq + 1)}});
  REQUIRE(wait_for(marked).exit_code == 0);
  ::kill(other, SIGTERM);
  CHECK(wait_for(other).exit_code == 0);
  const Log log = stop_and_read(sampler, out);
  int most = 0;
  for (const auto& p : log.proc) most = std::max(most, p.nprocs);
  CHECK(most == 1);  // the marked holder only
  CHECK(peak_rss(log) >= 16.0);
}

TEST_CASE("telemetry sampler proc: children that come and go between two samples count through their parent", "[timing]") {
  TempDir dir;
  const std::string out = dir.file("telemetry.n1");
  const std::string events = dir.file("events");
  // Two children of 0.6 s of CPU each, started and waited for by the root between the first sample and
  // the stop: with the longest interval (60 s), no scan in between sees them. Assumes the two take less
  // than 60 s of wall time, however busy the machine.
  // The root starts its children once the sampler's first sample (t = 0) is written.
  const std::string script = "until grep -q '^proc ' " + out + " 2> /dev/null; do sleep 0.05; done; " +
                             std::string(kWorkload) + " busy 0.6; " + kWorkload +
                             " busy 0.6; echo children-done > " + events + "; exec sleep 600";
  const pid_t root = spawn({"/bin/sh", "-c", script});
  const KilledAtEnd root_killed{root};
  std::vector<std::string> argv{kSampler, "--out", out, "--interval-ms", "60000", "--sources", "proc", "--root",
                                std::to_string(root)};
  const pid_t sampler = spawn(argv);
  REQUIRE(wait_for_line(out, "proc "));
  REQUIRE(wait_for_line(events, "children-done"));  // both children have ended and were waited for
  const Log log = stop_and_read(sampler, out);
  REQUIRE(log.proc.size() == 2);  // t = 0 and the last sample at the stop: no scan saw the children busy
  INFO("CPU time the sampler counted: " << log.proc.back().cpu_s << " s");
  CHECK(log.proc.back().cpu_s >= 1.1);  // each child runs until it has used 0.6 s (the kernel counts in ticks)
  CHECK(log.proc.back().cpu_s <= 1.6);  // and the two starts of telemetry_workload and sh cost far less than 0.4 s
}

TEST_CASE("telemetry sampler proc: 300 MiB held between two samples is in the peak (VmHWM)", "[timing]") {
  TempDir dir;
  const std::string out = dir.file("telemetry.n1");
  const std::string events = dir.file("events");
  const pid_t spiky = spawn({kWorkload, "spike", "300", "0.2", events});  // holds nothing until SIGUSR1
  const KilledAtEnd spiky_killed{spiky};
  // The longest interval (60 s): assumes touching 300 MiB takes less, however slow first-touch page
  // faults are on a busy machine (94 MiB in 1.5 s seen on one).
  std::vector<std::string> argv{kSampler, "--out", out, "--interval-ms", "60000", "--sources", "proc", "--root",
                                std::to_string(spiky)};
  const pid_t sampler = spawn(argv);
  REQUIRE(wait_for_line(out, "proc "));  // the sample at t = 0, before the peak
  ::kill(spiky, SIGUSR1);
  REQUIRE(wait_for_line(events, "released"));  // the peak is over; the next sample is the one at the stop
  const Log log = stop_and_read(sampler, out);
  REQUIRE(log.proc.size() == 2);  // t = 0 and the stop: none while the memory was held
  INFO("VmRSS summed at each sample, largest: " << peak_rss(log) << " MiB");
  CHECK(peak_rss(log) < 300);  // what the sampled sum alone would say
  REQUIRE(log.proc.back().peak_mib);
  CHECK(*log.proc.back().peak_mib >= 300);
  const auto s = summarize({log});
  const auto peak = std::find_if(s.metrics.begin(), s.metrics.end(), [](const Metric& m) { return m.name == "peak_rss_mib"; });
  REQUIRE(peak != s.metrics.end());
  CHECK(peak->value >= 300);
}
