// A closed terminal (SIGHUP) on the local executor: sweep stops as on Ctrl-C and says so, unless it was
// started with SIGHUP ignored (nohup), in which case the campaign runs on to the end. The nohup case is
// made as nohup makes it: SIGHUP ignored in the parent, inherited across exec.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "e2e/harness.h"

using e2e::Sandbox;

namespace {

/// Starts `sweep run h.yaml --label h` whose one run waits for the file `go`, with SIGHUP ignored when
/// `nohup`; returns its pid once the run has started.
int start_waiting_run(const Sandbox& box, bool nohup) {
  box.write("h.yaml", "name: h\nmatrix: {n: [1]}\nworkload:\n  command: |\n    echo started\n    while [ ! -e " +
                          box.path("go") + " ]; do sleep 0.05; done\n");
  struct sigaction ignore {}, old {};
  ignore.sa_handler = SIG_IGN;
  if (nohup) ::sigaction(SIGHUP, &ignore, &old);
  const int pid = box.spawn_sweep({"run", "h.yaml", "--label", "h"});
  if (nohup) ::sigaction(SIGHUP, &old, nullptr);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!std::filesystem::exists(box.path("results/h")) ||
         e2e::shell("cat " + box.path("results/h") + "/*/stdout 2> /dev/null").out != "started\n") {
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return pid;
}

int exit_status(int pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST_CASE("hangup: SIGHUP stops a local run as Ctrl-C does and says the terminal closed") {
  Sandbox box;
  const int pid = start_waiting_run(box, false);
  ::kill(pid, SIGHUP);
  const int code = exit_status(pid);
  const std::string err = e2e::read_file(box.path(".sweep.bg.err"));
  INFO(err);
  CHECK(code == 130);
  CHECK_THAT(err, Catch::Contains("the terminal closed (SIGHUP)") && Catch::Contains("sweep run --resume h"));
  box.write("go", "");
  CHECK(box.sweep({"run", "--resume", "h"}).exit_code == 0);
}

TEST_CASE("hangup: a run started under nohup ignores SIGHUP and finishes") {
  Sandbox box;
  const int pid = start_waiting_run(box, true);
  ::kill(pid, SIGHUP);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  box.write("go", "");
  const int code = exit_status(pid);
  INFO(e2e::read_file(box.path(".sweep.bg.err")));
  CHECK(code == 0);
  CHECK_THAT(e2e::read_file(box.path(".sweep.bg.out")), Catch::Contains("1 runs planned, 1 succeeded"));
}
