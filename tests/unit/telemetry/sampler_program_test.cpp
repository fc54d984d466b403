// sweep-telemetry's life and its file: --daemon, stop, signals, a planted symlink, a kill mid-run, and
// the rapl source on a powercap stand-in across a counter wrap.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <thread>

#include "powercap_standin.h"
#include "sampler_process.h"
#include "temp_dir.h"

using namespace sweep::telemetry;
using namespace sweep::telemetry::testing;

namespace {

/// The pid that `sweep-telemetry --daemon` printed.
pid_t start_daemon(const std::vector<std::string>& args) {
  std::vector<std::string> argv{kSampler, "--daemon"};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto [code, out] = run_capture(argv);
  REQUIRE(code == 0);
  return static_cast<pid_t>(std::stoi(out));
}

void stop(pid_t pid) { CHECK(run_capture({kSampler, "stop", std::to_string(pid)}).first == 0); }

}  // namespace

TEST_CASE("telemetry sampler program: --daemon returns once the first sample is on disk, stop ends it with end") {
  TempDir dir;
  const std::string out = dir.file("telemetry.n1");
  const pid_t pid = start_daemon({"--out", out, "--interval-ms", "60000", "--root", std::to_string(::getpid())});
  const Log first = read_log(out);  // read at once: no waiting
  REQUIRE(first.proc.size() == 1);
  CHECK(first.proc[0].t == 0.0);
  CHECK_FALSE(first.end_t);
  CHECK(running(pid));
  CHECK(first.sources.size() == 3);
  stop(pid);  // at a 60 s interval: the signal, not the next slot, ends it
  CHECK_FALSE(running(pid));
  const Log last = read_log(out);
  CHECK(last.end_t);
  CHECK(last.proc.size() == 2);
}

TEST_CASE("telemetry sampler program: SIGINT in the foreground ends with a last sample and end") {
  TempDir dir;
  const std::string out = dir.file("telemetry.n1");
  const pid_t pid = spawn({kSampler, "--out", out, "--interval-ms", "50", "--sources", "proc"});
  REQUIRE(wait_for_line(out, "proc ", 3));
  ::kill(pid, SIGINT);
  CHECK(wait_for(pid).exit_code == 0);
  const Log log = read_log(out);
  REQUIRE(log.end_t);
  CHECK(log.proc.size() >= 4);  // three, then the last
  CHECK(log.proc.back().t == Approx(*log.end_t));
  CHECK(log.sources[1].state == "off");
}

TEST_CASE("telemetry sampler program: killed mid-run, the file holds every sample it took, without end") {
  TempDir dir;
  const std::string out = dir.file("telemetry.n1");
  const pid_t pid = start_daemon({"--out", out, "--interval-ms", "50", "--sources", "proc"});
  REQUIRE(wait_for_line(out, "proc ", 3));
  ::kill(pid, SIGKILL);
  while (running(pid)) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const Log log = read_log(out);
  CHECK_FALSE(log.end_t);
  CHECK(log.proc.size() >= 3);
  CHECK(run_capture({kSampler, "stop", std::to_string(pid)}).first == 0);  // already gone: fine
}

TEST_CASE("telemetry sampler program: a daemon whose root is killed ends by itself, its file cut short") {
  TempDir dir;
  const std::string out = dir.file("telemetry.n1");
  const pid_t job = spawn({"/bin/sleep", "60"});  // the job script the daemon watches
  const pid_t pid = start_daemon({"--out", out, "--interval-ms", "60000", "--sources", "proc", "--root",
                                  std::to_string(job)});
  CHECK(running(pid));
  ::kill(job, SIGKILL);  // a timeout's SIGKILL: nobody will run `stop`
  wait_for(job);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);  // half the 60 s slot
  while (running(pid) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK_FALSE(running(pid));  // within about a second, not at the next 60 s slot
  const Log log = read_log(out);
  CHECK_FALSE(log.end_t);
  CHECK(log.proc.size() == 2);  // the first sample and the last
}

TEST_CASE("telemetry sampler program: a daemon stays in its launcher's process group, which a timeout signals") {
  TempDir dir;
  const std::string out = dir.file("telemetry.n1");
  const pid_t pid = start_daemon({"--out", out, "--interval-ms", "60000", "--sources", "proc"});
  CHECK(::getpgid(pid) == ::getpgrp());
  stop(pid);
}

TEST_CASE("telemetry sampler program: a source hanging at start gives up after --start-timeout-ms") {
  TempDir dir;
  const std::string fifo = dir.file("libnvidia-ml.so.1");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);  // dlopen of a FIFO blocks in open(2), as a hung init would
  const auto started = std::chrono::steady_clock::now();
  const auto [code, out] = run_capture({kSampler, "--daemon", "--out", dir.file("telemetry.n1"), "--sources", "nvml",
                                        "--start-timeout-ms", "500"},
                                       {{"SWEEP_NVML_LIBRARY", fifo}});
  const auto took = std::chrono::steady_clock::now() - started;
  CHECK(code == 6);
  CHECK(out.empty());  // no pid: the job script goes on without telemetry
  CHECK(took < std::chrono::seconds(5));
  CHECK(run_capture({"/bin/sh", "-c", "pgrep -f '[s]weep-telemetry --daemon --out " + dir.file("telemetry.n1") + "'"}).first == 1);
}

TEST_CASE("telemetry sampler program: a planted symlink or file at the output is refused, never followed") {
  TempDir dir;
  const std::string target = dir.file("victim");
  std::ofstream(target) << "precious\n";
  std::filesystem::create_symlink(target, dir.file("telemetry.n1"));
  const auto [code, out] = run_capture({kSampler, "--daemon", "--out", dir.file("telemetry.n1"), "--sources", "proc"});
  CHECK(code == 6);
  CHECK(out.empty());
  CHECK(read_text(target) == "precious\n");
  CHECK(run_capture({kSampler, "--out", target, "--sources", "proc"}).first == 6);
  CHECK(read_text(target) == "precious\n");
}

TEST_CASE("telemetry sampler program: stop does not signal a process that is not a sampler (a reused pid)") {
  const pid_t other = spawn({"/bin/sleep", "5"});
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(run_capture({kSampler, "stop", std::to_string(other)}).first == 0);
  CHECK(running(other));
  ::kill(other, SIGTERM);
  wait_for(other);
}

TEST_CASE("telemetry sampler program: usage errors exit 2 and say what was expected") {
  CHECK(run_capture({kSampler, "--out", "x", "--interval-ms", "10"}).first == 2);
  const auto [code, help] = run_capture({kSampler, "--help"});
  CHECK(code == 0);
  CHECK(help.find("--interval-ms N") != std::string::npos);
}

TEST_CASE("telemetry sampler program: RAPL from a powercap stand-in, a wrap between samples undone") {
  PowercapStandin sysfs;
  sysfs.zone("0", "package-0", 1'000'000'000, 990'000'000);  // 10 J below the wrap
  sysfs.zone("0:0", "dram", 1'000'000'000, 0);
  TempDir dir;
  const std::string out = dir.file("telemetry.n1");
  const pid_t pid = start_daemon({"--out", out, "--interval-ms", "50", "--sources", "rapl", "--sysfs-root", sysfs.root()});
  sysfs.set("0", 5'000'000);    // wrapped: 10 J + 5 J
  sysfs.set("0:0", 7'000'000);  // 7 J
  stop(pid);  // its last sample, at the stop, reads the new values
  const Log log = read_log(out);
  REQUIRE(log.zones.size() == 2);
  CHECK(log.zones[0].kind == "package");
  CHECK(log.zones[1].kind == "dram");
  REQUIRE(log.rapl.size() >= 4);
  CHECK(*log.rapl[log.rapl.size() - 2].energy_j == Approx(15.0));
  CHECK(*log.rapl.back().energy_j == Approx(7.0));
}

TEST_CASE("telemetry sampler program: an unreadable RAPL counter is a source unavailable with its reason") {
  PowercapStandin sysfs;
  sysfs.zone("0", "package-0", 1000, 1);
  std::filesystem::remove(sysfs.zone_dir("0") + "/energy_uj");
  std::filesystem::create_directory(sysfs.zone_dir("0") + "/energy_uj");
  TempDir dir;
  const std::string out = dir.file("telemetry.n1");
  stop(start_daemon({"--out", out, "--sources", "proc,rapl", "--sysfs-root", sysfs.root()}));
  const Log log = read_log(out);
  CHECK(log.sources[1].state == "unavailable");
  CHECK(log.sources[1].detail.find("energy_uj") != std::string::npos);
  CHECK(log.rapl.empty());
  CHECK(log.end_t);
}
