// sweep nightly with the bundled nightly campaign (experiments/nightly.yaml, real 2-rank trainbench runs
// on the local executor): the first night pins the baseline, a night slowed by trainbench's documented
// knob regresses with exit 1, an unchanged night passes with exit 0.
#include <catch2/catch.hpp>

#include "e2e/harness.h"

using e2e::scalar;

namespace {

e2e::Result night(const e2e::Sandbox& box, const std::string& date, const std::string& env = "") {
  return e2e::shell("cd " + box.dir().string() + " && " + env + " " + SWEEP_BIN + " nightly " + SWEEP_SOURCE_DIR +
                    "/experiments/nightly.yaml --date " + date +
                    " --metrics samples_per_s,step_time_mean --threshold 0.5 --no-figures -j 1");
}

}  // namespace

TEST_CASE("sweep nightly: pinned first, a slowed night regresses with exit 1, an unchanged night passes") {
  e2e::Sandbox box;
  const auto first = night(box, "2026-01-01");
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 0);
  CHECK_THAT(first.out, Catch::StartsWith("nightly-2026-01-01: pinned as the baseline: baseline \"nightly\" is nightly-2026-01-01"));
  CHECK(std::filesystem::exists(box.path("reports/nightly-2026-01-01/report.html")));

  // Every step sleeps 100 ms more (a step takes a few ms): samples/s falls by over 90% and step time
  // grows many times, far beyond the 50% threshold, which the night-to-night noise of this shared
  // machine stays under (the test runs alone).
  const auto slow = night(box, "2026-01-02", "TRAINBENCH_SLOWDOWN_MS=100");
  INFO(slow.out << slow.err);
  CHECK(slow.exit_code == 1);
  CHECK_THAT(slow.out, Catch::StartsWith("nightly-2026-01-02: REGRESSED: against nightly-2026-01-01 (baseline \"nightly\"): 4 regressed"));
  CHECK_THAT(slow.out, Catch::Contains("parallelism=pp samples_per_s: regressed"));
  const std::string text = e2e::read_file(box.path("reports/nightly-2026-01-02/nightly.txt"));
  CHECK_THAT(text, Catch::Contains("4 regressed"));
  CHECK_THAT(e2e::read_file(box.path("reports/nightly-2026-01-02/nightly.junit.xml")), Catch::Contains("<failure message=\"regressed"));

  const auto same = night(box, "2026-01-03");
  INFO(same.out << same.err);
  CHECK(same.exit_code == 0);
  CHECK_THAT(same.out, Catch::StartsWith("nightly-2026-01-03: passed: against nightly-2026-01-01 (baseline \"nightly\"): 0 regressed"));

  // Called again, a finished night runs nothing more and gives the same answer.
  const auto again = night(box, "2026-01-02");
  CHECK(again.exit_code == 1);
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM runs r JOIN campaigns c ON c.id = r.campaign_id WHERE c.label = 'nightly-2026-01-02'") == 10);
  CHECK(scalar(db, "SELECT count(*) FROM attempts a JOIN runs r ON r.id = a.run_id JOIN campaigns c ON c.id = r.campaign_id "
                   "WHERE c.label = 'nightly-2026-01-02'") == 10);

  const auto bad = night(box, "yesterday");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("--date \"yesterday\": expected YYYY-MM-DD"));
}
