// Adaptive repetitions (`repetitions: {min, max, until}`) on the local executor: each point gets the
// runs its noise needs, the report says how each point stands, and resuming adds nothing.
#include <catch2/catch.hpp>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "e2e/harness.h"

using namespace e2e;

namespace {

// The value of repetition r: steady 100 every time; wobbly 99, 101, 99, ... (precise enough at 4 runs:
// t(0.975, 3) * 1.155 / sqrt(4) = 1.84% of 100 <= 2%, but 2.87% at 3); wild 80, 120, 80, ... (never).
const char* kAdaptive = R"(name: adaptive
matrix:
  kind: [steady, wobbly, wild]
derived:
  swing: "kind == 'steady' ? 0 : kind == 'wobbly' ? 1 : 20"
repetitions:
  min: 3
  max: 8
  until: {metric: value, ci95_rel: 0.02}
workload:
  command: |
    if [ $(( {{repetition}} % 2 )) -eq 0 ]; then v=$(( 100 - {{swing}} )); else v=$(( 100 + {{swing}} )); fi
    echo "value=$v"
metrics:
  - name: value
    better: higher
    regex: 'value=(?<value>\d+)'
)";

long long runs_of(SQLite::Database& db, const char* kind) {
  return scalar(db, std::string("SELECT count(*) FROM runs r JOIN point_params p ON p.campaign_id = r.campaign_id AND "
                                "p.point_id = r.point_id WHERE p.name = 'kind' AND p.value = '") + kind + "'");
}

/// Whether `run_root` has a run directory (<point>.rep<R>.attempt<A>) of repetition `rep`.
bool has_repetition(const std::string& run_root, int rep) {
  const std::string infix = ".rep" + std::to_string(rep) + ".";
  std::error_code ec;
  for (const auto& run : std::filesystem::directory_iterator(run_root, ec))
    if (run.path().filename().string().find(infix) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("adaptive repetitions: each point runs until its mean is precise enough, or max") {
  Sandbox box;
  const auto spec = box.write("adaptive.yaml", kAdaptive);
  CHECK_THAT(box.sweep({"plan", spec}).out,
             Catch::EndsWith("3 points x 3 repetitions = 9 runs\nadaptive: up to 8 repetitions per point, until the 95% CI "
                             "of value is within 2% of its mean\n"));
  const auto run = box.sweep({"run", spec, "--label", "a", "--jobs", "2"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.out, Catch::Contains("campaign a: 15 runs planned, 15 succeeded") &&
                          Catch::Contains("repetitions: 2 of 3 points met ci95_rel <= 2% of value with 3 to 4 runs; "
                                          "1 reached max 8 without it"));
  auto db = box.db();
  CHECK(runs_of(db, "steady") == 3);
  CHECK(runs_of(db, "wobbly") == 4);
  CHECK(runs_of(db, "wild") == 8);  // 3, then 3 more (doubling), then the 2 that max leaves
  CHECK(scalar(db, "SELECT count(DISTINCT repetition) FROM runs") == 8);  // numbered on: 0 to 7

  const auto report = box.sweep({"report", "a", "--stdout"});
  CHECK_THAT(report.out, Catch::Contains("## Repetitions") && Catch::Contains("| kind=steady | 3 | 0.00% | met |") &&
                             Catch::Contains("| kind=wobbly | 4 | 1.84% | met |") &&
                             Catch::Contains("| kind=wild | 8 | ") && Catch::Contains("| max reached |"));

  const auto again = box.sweep({"run", "--resume", "a"});
  INFO(again.out << again.err);
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.out, Catch::Contains("15 runs planned, 15 succeeded") && Catch::Contains("(0 attempts started now)"));
}

TEST_CASE("adaptive repetitions: a controller killed between rounds resumes to the same runs") {
  Sandbox box;
  std::string slow = kAdaptive;
  slow.replace(slow.find("    echo \"value=$v\""), 0, "    sleep 0.3\n");
  const auto spec = box.write("adaptive.yaml", slow);
  const int pid = box.spawn_sweep({"run", spec, "--label", "k", "--jobs", "1"});
  // The first round is 9 runs of 0.3 s: stop the controller in the second.
  for (int i = 0; i < 2400 && !has_repetition(box.path("results/k"), 3); ++i)  // a bound on a hang
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(has_repetition(box.path("results/k"), 3));
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  const auto resumed = box.sweep({"run", "--resume", "k"});
  INFO(resumed.out << resumed.err);
  CHECK(resumed.exit_code == 0);
  auto db = box.db();
  CHECK(runs_of(db, "steady") == 3);
  CHECK(runs_of(db, "wobbly") == 4);
  CHECK(runs_of(db, "wild") == 8);
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE state != 'succeeded'") == 0);
}
