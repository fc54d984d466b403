// `sweep compare --extend-budget N`: inconclusive verdicts get the candidate runs their power hints ask
// for, within the budget, and the campaigns are compared again.
#include <catch2/catch.hpp>

#include "e2e/harness.h"

using namespace e2e;

namespace {

// value: 96, 104, 96, ... by repetition: a CV of about 4%, too noisy at 3 runs to rule out ±5%.
const char* kNoisy = R"(name: noisy
telemetry: false
matrix:
  n: [1, 2]
repetitions: 3
workload:
  command: |
    if [ $(( {{repetition}} % 2 )) -eq 0 ]; then echo "value=96"; else echo "value=104"; fi
metrics:
  - {name: value, better: higher, regex: 'value=(?<value>\d+)'}
)";

long long runs_of(SQLite::Database& db, const char* label) {
  return scalar(db, std::string("SELECT count(*) FROM runs r JOIN campaigns c ON c.id = r.campaign_id WHERE c.label = '") +
                        label + "'");
}

}  // namespace

TEST_CASE("compare --extend-budget runs what the inconclusive verdicts ask for, then decides them") {
  Sandbox box;
  box.write("noisy.yaml", kNoisy);
  REQUIRE(box.sweep({"run", "noisy.yaml", "--label", "base", "--set", "repetitions=12"}).exit_code == 0);
  REQUIRE(box.sweep({"run", "noisy.yaml", "--label", "cand"}).exit_code == 0);
  const auto before = box.sweep({"compare", "base", "cand"});
  CHECK_THAT(before.out, Catch::Contains("2 inconclusive") && Catch::Contains("about 13 repetitions each would tell"));

  // 10 more runs per point (13 - 3): a budget of 15 takes one point whole, and leaves the other.
  const auto partial = box.sweep({"compare", "base", "cand", "--extend-budget", "15"});
  INFO(partial.out << partial.err);
  CHECK_THAT(partial.err, Catch::Contains("extending cand: 10 more runs at 1 points for 1 inconclusive verdicts (budget 15; "
                                          "1 verdicts left out, their points did not fit)"));
  CHECK_THAT(partial.out, Catch::Contains("1 unchanged") && Catch::Contains("1 inconclusive"));
  auto db = box.db();
  CHECK(runs_of(db, "cand") == 16);
  CHECK(runs_of(db, "base") == 24);  // the baseline is history: never extended

  const auto rest = box.sweep({"compare", "base", "cand", "--extend-budget", "15"});
  INFO(rest.out << rest.err);
  CHECK_THAT(rest.out, Catch::Contains("2 unchanged, 0 changed, 0 inconclusive"));
  CHECK(runs_of(db, "cand") == 26);

  const auto nothing = box.sweep({"compare", "base", "cand", "--extend-budget", "15"});
  CHECK(nothing.err.find("extending") == std::string::npos);  // nothing inconclusive: nothing run
  CHECK(runs_of(db, "cand") == 26);
}

TEST_CASE("sweep nightly --extend-budget decides tonight's inconclusive verdicts before it answers") {
  Sandbox box;
  box.write("noisy.yaml", kNoisy);
  const auto first = box.sweep({"nightly", "noisy.yaml", "--date", "2026-03-01", "--set", "repetitions=12", "--no-figures"});
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 0);
  const auto second = box.sweep({"nightly", "noisy.yaml", "--date", "2026-03-02", "--no-figures", "--extend-budget", "40"});
  INFO(second.out << second.err);
  CHECK(second.exit_code == 0);
  CHECK_THAT(second.out, Catch::StartsWith("nightly-noisy-2026-03-02: passed") &&
                             Catch::Contains("2 unchanged, 0 changed, 0 inconclusive (2 comparisons); after 20 more runs for "
                                             "2 inconclusive verdicts"));
  auto db = box.db();
  CHECK(runs_of(db, "nightly-noisy-2026-03-02") == 26);
  const auto again = box.sweep({"nightly", "noisy.yaml", "--date", "2026-03-02", "--no-figures", "--extend-budget", "40"});
  CHECK(again.exit_code == 0);  // the same night called again only reports: nothing more is run
  CHECK(runs_of(db, "nightly-noisy-2026-03-02") == 26);
  CHECK_THAT(read_file(box.path("reports/nightly-noisy-2026-03-02/report.md")), Catch::Contains("Runs: 26 planned"));
}
