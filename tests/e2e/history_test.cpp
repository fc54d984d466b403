// `sweep report --history` over a series of ten real campaigns whose throughput drops 20% at one point
// from the sixth on: the change point is found at that campaign, in report.json, the change-points
// table and the trend figure, and not at the point that never moved.
#include <catch2/catch.hpp>

#include <fmt/core.h>

#include "e2e/harness.h"

using namespace e2e;

TEST_CASE("sweep report --history finds the campaign where a metric shifted for good") {
  Sandbox box;
  write_speed_experiment(box, 3);
  box.write("shift-2.txt", "0\n");
  for (int night = 1; night <= 10; ++night) {
    box.write("shift-1.txt", night < 6 ? "0\n" : "-200\n");  // n=1: 1001 -> 801 from series-06 on
    const auto run = box.sweep({"run", "speed.yaml", "--label", fmt::format("series-{:02}", night)});
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
  }
  const auto report = box.sweep({"report", "series-10", "--history", "series-"});
  INFO(report.out << report.err);
  REQUIRE(report.exit_code == 0);

  const std::string dir = box.path("reports/series-10");
  const std::string json = read_file(dir + "/report.json");
  CHECK_THAT(json, Catch::StartsWith("{\"version\": 8, \"verdict\": null, "));  // no gate judged it
  CHECK_THAT(json, Catch::Contains("\"change_point_method\": {\"name\": \"e-divisive\", \"alpha\": 1, \"min_segment\": 3, "));
  CHECK_THAT(json, Catch::Contains("\"change_points\": [{\"metric\": \"speed\", \"point\": \"n=1\", \"night\": \"06\", "
                                   "\"campaign\": \"series-06\", \"index\": 5, \"before\": 1001, \"after\": 801, "
                                   "\"relative\": -0.1998"));
  CHECK_THAT(json, !Catch::Contains("\"point\": \"n=2\""));  // constant: no change point
  CHECK_THAT(read_file(dir + "/report.change-points.csv"), Catch::Contains("speed,n=1,06,1001,801,-20.0%,"));
  CHECK_THAT(read_file(dir + "/report.md"), Catch::Contains("### change points"));
  CHECK_THAT(read_file(dir + "/figures/trend-speed.gp"), Catch::Contains("set arrow 1 from 5, graph 0 to 5, graph 1 nohead"));
  CHECK(std::filesystem::file_size(dir + "/figures/trend-speed.svg") > 0);  // gnuplot took the marker
}

TEST_CASE("sweep nightly prints the change points of its history") {
  Sandbox box;
  write_speed_experiment(box, 3);
  box.write("shift-2.txt", "0\n");
  Result last;
  for (int night = 1; night <= 10; ++night) {
    box.write("shift-1.txt", night < 6 ? "0\n" : "-200\n");
    last = box.sweep({"nightly", "speed.yaml", "--date", fmt::format("2026-01-{:02}", night), "--no-figures"});
    INFO(last.out << last.err);
    CHECK(last.exit_code == (night < 6 ? 0 : 1));  // against night 1, the pinned baseline
    if (night == 5) CHECK_THAT(last.out, !Catch::Contains("change point"));  // too few nights on the far side yet
  }
  INFO(last.out << last.err);
  CHECK_THAT(last.out, Catch::StartsWith("nightly-speed-2026-01-10: REGRESSED"));
  CHECK_THAT(last.out, Catch::Contains("\n  change point: speed at n=1: -20.0% (1001 to 801) from nightly-speed-2026-01-06 (p="));
  CHECK_THAT(last.out, !Catch::Contains("at n=2"));
  // The night's report opens with its verdict and the regressed rows.
  CHECK_THAT(read_file(box.path("reports/nightly-speed-2026-01-10/report.md")),
             Catch::Contains("## Verdict: REGRESSED\n\nagainst nightly-speed-2026-01-01 (baseline \"nightly-speed\", pinned ") &&
                 Catch::Contains("\n- n=1 speed: regressed -20.0%: "));
}
