// sweep nightly on the development cluster, through the Slurm executor: the nights line up, a drop
// regresses, a failed night is FAILED. The three nights of experiments/nightly.yaml with the bundled
// programs (tests/e2e/nightly_scenario.h) run once, on the local executor (tests/workloads/nightly_test.cpp):
// the gate's logic does not depend on the executor, and this test covers the Slurm path of a night.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "e2e/harness.h"
#include "slurm/slurm_harness.h"

TEST_CASE("sweep nightly on the cluster: a one-value axis added between nights still lines up, the drop regresses, and a failed night is FAILED", "[solo][timing]") {
  e2e::Sandbox box;
  e2e::write_speed_experiment(box, 3);
  box.write("shift-1.txt", "0\n");
  box.write("shift-2.txt", "0\n");
  const auto night = [&](const std::string& date) {
    return e2e::shell("cd " + box.dir().string() + " && " + SWEEP_BIN + " nightly speed.yaml --date " + date +
                      " --no-figures --executor slurm --poll-max 1");
  };
  const auto first = night("2026-02-01");
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 0);
  // The experiment gains `steps: [1000]` and n=1 loses half its speed: the points still line up.
  const std::string text = e2e::read_file(box.path("speed.yaml"));
  box.write("speed.yaml", text.substr(0, text.find("  n: [1, 2]\n")) + "  n: [1, 2]\n  steps: [1000]\n" +
                              text.substr(text.find("  n: [1, 2]\n") + 12));
  box.write("shift-1.txt", "-500\n");
  const auto second = night("2026-02-02");
  INFO(second.out << second.err);
  CHECK(second.exit_code == 1);
  CHECK_THAT(second.out, Catch::StartsWith("nightly-speed-2026-02-02: REGRESSED: against nightly-speed-2026-02-01 "
                                           "(baseline \"nightly-speed\"): 0 missing, 1 regressed, 0 improved, 1 unchanged"));
  // The history lines the nights up by the same rule: one series per n, not one per night's point ids.
  const std::string csv = e2e::read_file(box.path("reports/nightly-speed-2026-02-02/report.history-speed.csv"));
  CHECK_THAT(csv, Catch::StartsWith("night,n=1 mean,"));
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 3);
  // Every run of the next night fails: FAILED, exit 8.
  std::filesystem::remove(box.path("shift-1.txt"));
  std::filesystem::remove(box.path("shift-2.txt"));
  const auto third = night("2026-02-03");
  INFO(third.out << third.err);
  CHECK(third.exit_code == 8);
  CHECK_THAT(third.out, Catch::StartsWith("nightly-speed-2026-02-03: FAILED: 6 of 6 runs failed"));
}
