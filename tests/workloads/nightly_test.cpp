// sweep nightly with the bundled nightly campaign (experiments/nightly.yaml, real 2-rank collbench and
// trainbench runs under mpirun on the local executor): tests/e2e/nightly_scenario.h.
#include "e2e/nightly_scenario.h"

TEST_CASE("sweep nightly: pinned first, a slowed night regresses with exit 1, an unchanged night passes") {
  e2e::Sandbox box;
  nightly_test::three_nights(box, [&](const std::string& date, const std::string& env, const std::string& args) {
    return e2e::shell("cd " + box.dir().string() + " && " + env + " " + SWEEP_BIN + " nightly " + SWEEP_SOURCE_DIR +
                      "/experiments/nightly.yaml --date " + date + args + " -j 1 --set repetitions=3");
  }, 3);  // 3 repetitions, not the bundled 5: 45 runs instead of 75, and the slowed night still decisive

  const auto bad = e2e::shell("cd " + box.dir().string() + " && " + SWEEP_BIN + " nightly " + SWEEP_SOURCE_DIR +
                              "/experiments/nightly.yaml --date yesterday");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("--date \"yesterday\": expected YYYY-MM-DD"));
}
