// `reduce` through the CLI (docs/metrics-format.md#reduce): a training script prints a loss per step and
// a final one; a loose regex matches them all. Without `reduce` the run fails naming the rule, the count
// and the fix; with `reduce: last` the report shows the final loss; `sweep show` gives the counts.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "e2e/harness.h"

using namespace e2e;

namespace {

// Two steps and a final loss per run: the final one is 0.27 in repetition 0 and 0.25 in repetition 1.
std::string training(const std::string& reduce_line) {
  return R"yaml(name: train
matrix:
  lr: [0.1]
repetitions: 2
workload:
  command: 'echo "loss 0.9"; echo "loss 0.5"; echo "final loss 0.2$(( 7 - 2 * {{repetition}} ))"'
metrics:
  - name: loss
    better: lower
    regex: 'loss (?<value>[0-9.]+)'
)yaml" + reduce_line;
}

/// Writes train.yaml with `reduce_line` after the rule, runs it as campaign `label` and requires sweep's
/// exit code to be `exit_code`. Returns what sweep printed.
Result run_training(const Sandbox& box, const std::string& reduce_line, const std::string& label, int exit_code) {
  box.write("train.yaml", training(reduce_line));
  const Result r = box.sweep({"run", "train.yaml", "--label", label});
  INFO(r.err);
  REQUIRE(r.exit_code == exit_code);
  return r;
}

/// Reports campaign `label` and returns its report.json.
nlohmann::json report_json(const Sandbox& box, const std::string& label) {
  const Result r = box.sweep({"report", label, "--no-figures"});
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(read_file(box.path("reports/" + label + "/report.json")));
}

}  // namespace

TEST_CASE("a rule without reduce that matches every step fails its runs, naming the rule, the count and the fix") {
  Sandbox box;
  run_training(box, "", "loose", 1);
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE state = 'failed' AND failure_class = 'unreduced_metric'") == 2);
  const auto show = box.sweep({"show", "loose"});
  REQUIRE(show.exit_code == 0);
  CHECK_THAT(show.out, Catch::Contains("unreduced_metric: metric \"loss\" matched 3 times in this run's stdout; say "
                                       "reduce: last (or first, mean, min, max, sum; each keeps every match as its own "
                                       "index) in its rule at train.yaml:8:5"));
  CHECK_THAT(show.out, Catch::Contains("metric matches per run") && Catch::Contains("rep 1 attempt 1: loss 3\n"));
  // Nothing is averaged into a report: the failed runs are listed with the reason, and no loss appears.
  auto j = report_json(box, "loose");
  CHECK_THAT(read_file(box.path("reports/loose/report.md")), Catch::Contains("matched 3 times"));
  CHECK_FALSE(j["points"][0]["metrics"].contains("loss"));
}

TEST_CASE("reduce: last reports the final loss of each run, and sweep show counts the matches in text and JSON") {
  Sandbox box;
  run_training(box, "    reduce: last\n", "last", 0);
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'loss'") == 2);  // one value per run
  // The final losses 0.27 and 0.25: mean 0.26, not the 0.55 of every match.
  auto j = report_json(box, "last");
  CHECK(j["points"][0]["metrics"]["loss"]["mean"].get<double>() == Approx(0.26));
  CHECK_THAT(read_file(box.path("reports/last/report.md")), Catch::Contains("0.26"));

  const auto text = box.sweep({"show", "last"});
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("metric matches per run (values each rule found, before its reduce):\n") &&
                           Catch::Contains("rep 0 attempt 1: loss 3\n") && Catch::Contains("rep 1 attempt 1: loss 3\n"));
  const auto json = box.sweep({"show", "last", "--format", "json"});
  REQUIRE(json.exit_code == 0);
  const auto shown = nlohmann::json::parse(json.out);
  CHECK(shown["version"] == 6);
  REQUIRE(shown["run_matches"].size() == 2);
  CHECK(shown["run_matches"][1]["repetition"] == 1);
  CHECK(shown["run_matches"][1]["attempt"] == 1);
  CHECK(shown["run_matches"][1]["matches"]["loss"] == 3);
}

TEST_CASE("reduce: a bad value is refused before anything runs, at its place") {
  Sandbox box;
  const Result run = run_training(box, "    reduce: lsat\n", "bad", 3);
  CHECK_THAT(run.err, Catch::Contains("train.yaml:11:13: unknown reduction \"lsat\" (available: last, first, mean, min, "
                                      "max, sum, each) (did you mean \"last\"?)"));
}
