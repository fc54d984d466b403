#pragma once
// Three nights of experiments/nightly.yaml (collbench all-reduce at 3 sizes, trainbench DP and PP),
// run by the local test (tests/workloads/nightly_test.cpp; the development-cluster test
// tests/slurm/slurm_nightly_test.cpp runs a smaller night through Slurm): the first night pins the baseline, a night slowed by
// trainbench's documented knob regresses with exit 1, an unchanged night passes with exit 0, and the
// last night's report holds the history of the three (one line per night per metric, trend figures).
#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>
#include <string>

#include "e2e/harness.h"

namespace nightly_test {

/// Runs `sweep nightly experiments/nightly.yaml --date DATE ARGS` with `env` (VAR=value ...) prefixed.
using Night = std::function<e2e::Result(const std::string& date, const std::string& env, const std::string& args)>;

/// The gate compares trainbench's timings. collbench's small-message busbw is measured and kept in the
/// history, but not gated here: on the shared 2-core machines of CI it moves 3x from one minute to
/// the next (docs/nightly.md), so a gate on it would test the neighbours.
/// The threshold is 75%: an unchanged night on a loaded CI machine once moved step_time_mean by 52%, while
/// the slowed night (6.7 ms steps made 106.7 ms) moves samples_per_s by 94%, and still by 83% were a step 20 ms.
inline const std::string kGate = " --metrics samples_per_s,step_time_mean --threshold 0.75";

inline std::string night_label(const std::string& date) { return "nightly-nightly-" + date; }

/// `repetitions` is the campaign's, as the night's arguments set it.
inline void three_nights(const e2e::Sandbox& box, const Night& night, int repetitions) {
  const int runs = 5 * repetitions;
  const auto first = night("2026-01-01", "", kGate + " --no-figures");
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 0);
  CHECK_THAT(first.out, Catch::StartsWith("nightly-nightly-2026-01-01: pinned as the baseline: baseline \"nightly-nightly\" is nightly-nightly-2026-01-01"));
  CHECK(std::filesystem::exists(box.path("reports/nightly-nightly-2026-01-01/report.html")));
  auto db = box.db();
  // Every point ran: 3 collbench sizes and 2 trainbench layouts.
  CHECK(e2e::scalar(db, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == runs);
  CHECK(e2e::scalar(db, "SELECT count(DISTINCT r.point_id) FROM metrics m JOIN runs r ON r.id = m.run_id "
                        "WHERE m.name = 'busbw' AND m.value > 0") == 3);

  // Every step sleeps 100 ms more (a step takes a few ms): samples/s falls by over 90% and step time
  // grows many times, far beyond the 75% threshold, which the night-to-night noise of this shared
  // machine stays under (the test runs alone).
  const auto slow = night("2026-01-02", "TRAINBENCH_SLOWDOWN_MS=100", kGate + " --no-figures");
  INFO(slow.out << slow.err);
  // Exit 1, and none of the 4 compared values (2 metrics x 2 layouts) may look unchanged or improved;
  // a sample that a busy machine made noisy may stay inconclusive rather than regressed.
  CHECK(slow.exit_code == 1);
  CHECK_THAT(slow.out, Catch::StartsWith("nightly-nightly-2026-01-02: REGRESSED: against nightly-nightly-2026-01-01 (baseline \"nightly-nightly\"): 0 missing, "));
  CHECK_THAT(slow.out, Catch::Contains(" regressed, 0 improved, 0 unchanged, "));
  CHECK_THAT(slow.out, Catch::Contains("step_time_mean: regressed"));
  const std::string text = e2e::read_file(box.path("reports/nightly-nightly-2026-01-02/nightly.txt"));
  CHECK_THAT(text, Catch::Contains(" regressed, 0 improved, 0 unchanged, 0 changed, "));
  CHECK_THAT(e2e::read_file(box.path("reports/nightly-nightly-2026-01-02/nightly.junit.xml")), Catch::Contains("<failure message=\"regressed"));
  // The night's report opens with its verdict, and the regressed rows before anything else.
  const std::string slow_md = e2e::read_file(box.path("reports/nightly-nightly-2026-01-02/report.md"));
  CHECK_THAT(slow_md, Catch::StartsWith("# Campaign nightly-nightly-2026-01-02\n\n## Verdict: REGRESSED\n\nagainst "
                                        "nightly-nightly-2026-01-01 (baseline \"nightly-nightly\", pinned "));
  CHECK(slow_md.find(" step_time_mean: regressed ") < slow_md.find("Runs: "));
  CHECK_THAT(e2e::read_file(box.path("reports/nightly-nightly-2026-01-02/report.html")),
             Catch::Contains("<section id=\"verdict\" class=\"failed\"><h2>Verdict: REGRESSED</h2>"));

  const auto same = night("2026-01-03", "", kGate);
  INFO(same.out << same.err);
  CHECK(same.exit_code == 0);
  // Nothing regressed, nothing is missing. With 3 repetitions on a busy 2-core machine every verdict may
  // stay inconclusive: then the night says so (UNDECIDED, still exit 0) instead of "passed".
  const std::string against = " against nightly-nightly-2026-01-01 (baseline \"nightly-nightly\"): 0 missing, 0 regressed";
  CHECK_THAT(same.out, Catch::StartsWith("nightly-nightly-2026-01-03: passed:" + against) ||
                           Catch::StartsWith("nightly-nightly-2026-01-03: UNDECIDED, every comparison was inconclusive:" + against));

  // The history: per compared metric one line per night, and its trend figure in the HTML report.
  const std::string dir = box.path("reports/nightly-nightly-2026-01-03");
  const std::string csv = e2e::read_file(dir + "/report.history-samples_per_s.csv");
  CHECK_THAT(csv, Catch::StartsWith("night,parallelism=dp mean,"));
  for (const char* date : {"\n2026-01-01,", "\n2026-01-02,", "\n2026-01-03,"}) CHECK_THAT(csv, Catch::Contains(date));
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 4);
  // The slowed night shows in the history: its dp samples/s is far below the other two nights'.
  const auto dp_mean = [&](const std::string& date) {
    const auto at = csv.find("\n" + date + ",");
    REQUIRE(at != std::string::npos);
    return std::stod(csv.substr(at + date.size() + 2));
  };
  CHECK(dp_mean("2026-01-02") < dp_mean("2026-01-01") / 2);
  CHECK(dp_mean("2026-01-02") < dp_mean("2026-01-03") / 2);
  const std::string html = e2e::read_file(dir + "/report.html");
  CHECK_THAT(html, Catch::Contains("samples_per_s by night"));
  CHECK_THAT(html, Catch::Contains("step_time_mean by night"));
  CHECK(std::filesystem::file_size(dir + "/figures/trend-samples_per_s.svg") > 0);
  CHECK(std::filesystem::file_size(dir + "/figures/trend-step_time_mean.pdf") > 0);
  CHECK_FALSE(std::filesystem::exists(dir + "/report.history-busbw.csv"));  // not a compared metric
  CHECK_THAT(e2e::read_file(dir + "/figures/trend-samples_per_s.gp"),
             Catch::Contains("set xtics ('2026-01-01' 0, '2026-01-02' 1, '2026-01-03' 2)"));

  // Called again, a finished night runs nothing more and gives the same answer.
  const auto again = night("2026-01-02", "", kGate + " --no-figures");
  CHECK(again.exit_code == 1);
  CHECK(e2e::scalar(db, "SELECT count(*) FROM runs r JOIN campaigns c ON c.id = r.campaign_id WHERE c.label = 'nightly-nightly-2026-01-02'") == runs);
  CHECK(e2e::scalar(db, "SELECT count(*) FROM attempts a JOIN runs r ON r.id = a.run_id JOIN campaigns c ON c.id = r.campaign_id "
                        "WHERE c.label = 'nightly-nightly-2026-01-02'") == runs);
}

}  // namespace nightly_test
