#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <map>
#include <sstream>
#include <thread>

#include "e2e/harness.h"

using namespace e2e;

namespace {
// Each run sleeps briefly, then appends its point id to a ledger shared by all runs: the ledger
// counts completed executions, whatever the database says.
const char* kSlow = R"(name: slow
telemetry: false
matrix:
  i: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
workload:
  command: |
    sleep 0.3
    echo "{{point_id}}" >> {{ledger}}
    echo "value={{i}}"
metrics:
  - name: value
    better: higher
    regex: 'value=(?<value>\d+)'
)";
}

TEST_CASE("a controller killed with SIGKILL resumes to exactly the planned runs, only those in flight run again", "[resume]") {
  for (int delay_ms : {150, 700, 1500}) {
    Sandbox box;
    const std::string ledger = box.path("ledger");
    std::string spec = kSlow;
    spec.replace(spec.find("{{ledger}}"), 10, ledger);
    box.write("slow.yaml", spec);

    const int pid = box.spawn_sweep({"run", "slow.yaml", "--label", "s", "--jobs", "2"});
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);

    const auto resumed = box.sweep({"run", "slow.yaml", "--label", "s", "--jobs", "2"});
    INFO("killed after " << delay_ms << " ms: " << resumed.out << resumed.err);
    REQUIRE(resumed.exit_code == 0);
    auto db = box.db();
    CHECK(scalar(db, "SELECT count(*) FROM runs") == 16);
    CHECK(scalar(db, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == 16);
    CHECK(scalar(db, "SELECT count(*) FROM attempts WHERE state = 'succeeded'") == 16);
    CHECK(scalar(db, "SELECT count(*) FROM metrics") == 16);
    CHECK(scalar(db, "SELECT count(*) FROM campaigns") == 1);

    // A local run dies with its controller. One killed after its work but before its exit code was
    // written runs again: only the runs in flight at the kill (at most --jobs) may complete twice.
    const auto completions = count_lines(ledger);
    CHECK(completions.size() == 16);
    int twice = 0;
    for (const auto& [point, n] : completions) {
      CHECK(n >= 1);
      CHECK(n <= 2);
      twice += n == 2 ? 1 : 0;
    }
    CHECK(twice <= 2);
  }
}

TEST_CASE("resuming by label takes the experiment from the database and re-runs failed runs") {
  Sandbox box;
  const auto flag = box.path("flag");
  box.write("flaky.yaml", "name: flaky\ntelemetry: false\nmatrix:\n  x: [1, 2]\nworkload:\n  command: test -e " + flag +
                              " || test {{x}} = 1\n");
  const auto first = box.sweep({"run", "flaky.yaml", "--label", "k"});
  CHECK(first.exit_code == 1);
  box.write("flag", "");
  std::filesystem::remove(box.path("flaky.yaml"));  // --resume needs only the database
  const auto again = box.sweep({"run", "--resume", "k"});
  INFO(again.out << again.err);
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.out, Catch::Contains("2 runs planned, 2 succeeded, 0 failed, 0 unfinished (1 attempts started now)"));
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM attempts") == 3);
  CHECK(scalar(db, "SELECT max(attempt) FROM runs") == 2);

  const auto other = box.sweep({"run", "--resume", "nope"});
  CHECK(other.exit_code == 4);
}

TEST_CASE("SIGINT stops a campaign with exit code 130, and it resumes to completion") {
  Sandbox box;
  std::string spec = kSlow;
  spec.replace(spec.find("{{ledger}}"), 10, box.path("ledger"));
  box.write("slow.yaml", spec);
  const int pid = box.spawn_sweep({"run", "slow.yaml", "--label", "i", "--jobs", "2"});
  // Interrupted once a run has completed (the campaign is recorded, 14 or more runs are left), however
  // slowly a busy machine gets there.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (count_lines(box.path("ledger")).empty()) {
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  CHECK_THAT(read_file(box.path(".sweep.bg.err")), Catch::Contains("resume with: sweep run --resume i"));
  {
    auto db = box.db();
    CHECK(scalar(db, "SELECT count(*) FROM runs WHERE state = 'running'") == 0);
    CHECK(scalar(db, "SELECT count(*) FROM campaigns WHERE ended_at IS NULL") == 1);
  }
  const auto resumed = box.sweep({"run", "--resume", "i"});
  CHECK(resumed.exit_code == 0);
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == 16);
}

TEST_CASE("a second controller on a running campaign refuses, naming the first, which is unaffected", "[resume]") {
  Sandbox box;
  const std::string ledger = box.path("ledger");
  std::string spec = kSlow;
  spec.replace(spec.find("{{ledger}}"), 10, ledger);
  box.write("slow.yaml", spec);

  const int pid = box.spawn_sweep({"run", "slow.yaml", "--label", "s", "--jobs", "1"});  // about 5 s
  const auto lock = box.path("results/s/.controller.lock");
  for (int i = 0; i < 2400 && read_file(lock).empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  REQUIRE(read_file(lock) == std::to_string(pid) + "\n");
  for (const std::vector<std::string>& args : {std::vector<std::string>{"run", "--resume", "s"},
                                               std::vector<std::string>{"run", "slow.yaml", "--label", "s"}}) {
    const auto second = box.sweep(args);
    CHECK(second.exit_code == 2);
    CHECK_THAT(second.err, Catch::Contains("campaign \"s\" is being driven by another sweep (pid " + std::to_string(pid) +
                                           "); wait for it or stop it first"));
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == 16);
  CHECK(scalar(db, "SELECT count(*) FROM attempts") == 16);
  const auto completions = count_lines(ledger);
  CHECK(completions.size() == 16);
  for (const auto& [point, n] : completions) CHECK(n == 1);
}
