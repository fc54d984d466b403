// The gates fail closed (docs/nightly.md#exit-codes), on real campaigns of small shell workloads: a
// candidate whose runs all failed, an axis renamed, an axis added with one value, a value changed,
// another experiment, two nightly experiments in one database, a night whose runs all failed, samples
// identical bit for bit, and a night where nothing was decided. Each exit code of the table is met.
#include <catch2/catch.hpp>

#include <regex>

#include "e2e/harness.h"

using namespace e2e;

namespace {

/// speed.yaml with its text edited: `from` replaced by `to` everywhere.
void edit_speed(const Sandbox& box, const std::string& file, const std::string& from, const std::string& to) {
  box.write(file, std::regex_replace(read_file(box.path("speed.yaml")), std::regex(from), to));
}

/// An experiment `name` whose metric `speed` is 1000·n plus a spread of 400 per repetition, plus the
/// number in shift.txt: noisy, but the same values whenever shift.txt is the same.
std::string noisy(const Sandbox& box, const std::string& name) {
  return "name: " + name + "\ntelemetry: false\nmatrix:\n  n: [1, 2]\nrepetitions: 3\nworkload:\n  command: >-\n"
         "    echo \"{\\\"v\\\": 1, \\\"metric\\\": \\\"speed\\\", \\\"value\\\": $(( {{n}} * 1000 + {{repetition}} * 400 + "
         "$(cat " + box.path("shift.txt") + ") )), \\\"better\\\": \\\"higher\\\"}\"\n";
}

}  // namespace

TEST_CASE("compare: a candidate whose runs all failed is missing, never a pass") {
  Sandbox box;
  write_speed_experiment(box, 3);
  box.write("shift-1.txt", "0\n");
  box.write("shift-2.txt", "0\n");
  REQUIRE(box.sweep({"run", "speed.yaml", "--label", "main"}).exit_code == 0);
  std::filesystem::remove(box.path("shift-1.txt"));  // $(( 1000 + 0 + )): every run of n=1 fails
  std::filesystem::remove(box.path("shift-2.txt"));
  REQUIRE(box.sweep({"run", "speed.yaml", "--label", "lr1"}).exit_code == 1);
  REQUIRE(box.sweep({"baseline", "set", "main", "--name", "main"}).exit_code == 0);

  const auto gate = box.sweep({"compare", "--against", "main", "lr1", "--fail-on", "regressed"});
  INFO(gate.out << gate.err);
  CHECK(gate.exit_code == 7);
  CHECK_THAT(gate.out, Catch::StartsWith("missing: n=1 speed: its 3 runs failed: exited with code 1 (expected 0)"));
  CHECK_THAT(gate.out, Catch::Contains("\nmissing: n=2 speed: its 3 runs failed: "));
  CHECK_THAT(gate.out, Catch::Contains("nothing compared") &&
                           Catch::Contains("lr1 vs main: could not compare: 2 missing, 0 regressed"));
  // Without --fail-on it is a report, but zero comparisons is still not a success.
  CHECK(box.sweep({"compare", "main", "lr1"}).exit_code == 7);
  const auto json = box.sweep({"compare", "main", "lr1", "--format", "json"});
  CHECK_THAT(json.out, Catch::Contains("\"gate\": \"could not compare\"") &&
                           Catch::Contains("{\"point\": \"n=1\", \"metric\": \"speed\", \"verdict\": \"missing\", \"reason\": \"its 3 runs failed: "));
  const auto junit = box.sweep({"compare", "main", "lr1", "--format", "junit"});
  CHECK_THAT(junit.out, Catch::Contains("tests=\"2\" failures=\"2\"") && Catch::Contains("<failure message=\"missing: its 3 runs failed") &&
                            Catch::Contains("<property name=\"gate\" value=\"could not compare\"/><property name=\"baseline\" value=\"main\"/>"));

  // Half the candidate failed: the other half is compared, and the gate still fails on what is missing.
  box.write("shift-2.txt", "0\n");
  REQUIRE(box.sweep({"run", "speed.yaml", "--label", "half"}).exit_code == 1);
  const auto half = box.sweep({"compare", "main", "half", "--fail-on", "regressed"});
  CHECK(half.exit_code == 7);
  CHECK_THAT(half.out, Catch::Contains("half vs main: could not compare: 1 missing, 0 regressed, 0 improved, 1 unchanged"));
}

TEST_CASE("compare: an axis renamed, a value changed or another experiment is refused with what differs") {
  Sandbox box;
  write_speed_experiment(box, 3);
  box.write("shift-1.txt", "0\n");
  box.write("shift-2.txt", "0\n");
  REQUIRE(box.sweep({"run", "speed.yaml", "--label", "base"}).exit_code == 0);
  edit_speed(box, "renamed.yaml", "\\bn\\b", "size");
  REQUIRE(box.sweep({"run", "renamed.yaml", "--label", "renamed"}).exit_code == 0);
  const auto refused = box.sweep({"compare", "base", "renamed", "--fail-on", "regressed"});
  INFO(refused.out << refused.err);
  CHECK(refused.exit_code == 7);
  CHECK_THAT(refused.err, Catch::Contains("cannot compare renamed with baseline base: the baseline has axis `n` (1, 2), "
                                          "the candidate `size` (1, 2)") &&
                              Catch::Contains("--map OLD=NEW"));
  const auto mapped = box.sweep({"compare", "base", "renamed", "--fail-on", "regressed", "--map", "n=size"});
  INFO(mapped.out << mapped.err);
  CHECK(mapped.exit_code == 0);
  CHECK_THAT(mapped.out, Catch::Contains("renamed vs base: passed: 0 missing, 0 regressed, 0 improved, 2 unchanged"));
  CHECK(box.sweep({"compare", "base", "renamed", "--map", "m=size"}).exit_code == 2);  // no such parameter

  // A one-valued axis added: the points still line up, and a drop is a regression, not "nothing compared".
  edit_speed(box, "steps.yaml", "  n: \\[1, 2\\]\n", "  n: [1, 2]\n  steps: [1000]\n");
  box.write("shift-1.txt", "-500\n");
  REQUIRE(box.sweep({"run", "steps.yaml", "--label", "steps"}).exit_code == 0);
  const auto added = box.sweep({"compare", "base", "steps", "--fail-on", "regressed"});
  INFO(added.out << added.err);
  CHECK(added.exit_code == 1);
  CHECK_THAT(added.out, Catch::Contains("matched by n; one-valued, not matched: steps") &&
                            Catch::Contains("steps vs base: regressed: 0 missing, 1 regressed"));
  // That axis's one value changed: refused, unless the user says the difference does not matter.
  edit_speed(box, "steps2.yaml", "  n: \\[1, 2\\]\n", "  n: [1, 2]\n  steps: [2000]\n");
  REQUIRE(box.sweep({"run", "steps2.yaml", "--label", "steps2"}).exit_code == 0);
  const auto changed = box.sweep({"compare", "steps", "steps2", "--fail-on", "regressed"});
  CHECK(changed.exit_code == 7);
  CHECK_THAT(changed.err, Catch::Contains("`steps` is 1000 in the baseline, 2000 in the candidate"));
  const auto allowed = box.sweep({"compare", "steps", "steps2", "--fail-on", "regressed", "--allow-different"});
  INFO(allowed.out << allowed.err);
  CHECK(allowed.exit_code == 0);
  CHECK_THAT(allowed.out, Catch::Contains("differs (--allow-different): `steps` is 1000 in the baseline, 2000 in the candidate"));

  edit_speed(box, "other.yaml", "name: speed", "name: other");
  REQUIRE(box.sweep({"run", "other.yaml", "--label", "other"}).exit_code == 0);
  const auto other = box.sweep({"compare", "base", "other"});
  CHECK(other.exit_code == 7);
  CHECK_THAT(other.err, Catch::Contains("the baseline is experiment `speed`, the candidate `other`"));
  // Against a pin, the refusal names the one command that re-pins.
  REQUIRE(box.sweep({"baseline", "set", "base", "--name", "main"}).exit_code == 0);
  const auto pinned = box.sweep({"compare", "--against", "main", "other", "--fail-on", "regressed"});
  CHECK(pinned.exit_code == 7);
  CHECK_THAT(pinned.err, Catch::Contains("; or re-pin: sweep baseline set other --name main"));
}

TEST_CASE("compare: identical noisy samples are unchanged, and --fail-on inconclusive fails a noisy change") {
  Sandbox box;
  box.write("noisy.yaml", noisy(box, "noisy"));
  box.write("shift.txt", "0\n");
  REQUIRE(box.sweep({"run", "noisy.yaml", "--label", "a"}).exit_code == 0);
  REQUIRE(box.sweep({"run", "noisy.yaml", "--label", "b"}).exit_code == 0);
  const auto same = box.sweep({"compare", "a", "b", "--fail-on", "regressed,inconclusive"});
  INFO(same.out << same.err);
  CHECK(same.exit_code == 0);
  CHECK_THAT(same.out, Catch::Contains("b vs a: passed: 0 missing, 0 regressed, 0 improved, 2 unchanged, 0 changed, 0 inconclusive"));
  box.write("shift.txt", "1\n");
  REQUIRE(box.sweep({"run", "noisy.yaml", "--label", "c"}).exit_code == 0);
  const auto noisy_change = box.sweep({"compare", "a", "c", "--fail-on", "regressed"});
  INFO(noisy_change.out);
  CHECK(noisy_change.exit_code == 0);
  CHECK_THAT(noisy_change.out, Catch::Contains("c vs a: undecided: ") && Catch::Contains("2 inconclusive"));
  CHECK(box.sweep({"compare", "a", "c", "--fail-on", "inconclusive"}).exit_code == 1);
}

TEST_CASE("nightly: two experiments keep their own series, pins and verdicts in one database") {
  Sandbox box;
  box.write("shift.txt", "0\n");
  box.write("a.yaml", noisy(box, "nightly-a"));
  box.write("b.yaml", noisy(box, "nightly-b"));
  const auto a1 = box.sweep({"nightly", "a.yaml", "--date", "2026-05-01", "--no-figures"});
  INFO(a1.out << a1.err);
  CHECK(a1.exit_code == 0);
  CHECK_THAT(a1.out, Catch::StartsWith("nightly-nightly-a-2026-05-01: pinned as the baseline: baseline \"nightly-nightly-a\""));
  // The same date for b: its own campaign, run, and pinned; a's night is not re-reported.
  const auto b1 = box.sweep({"nightly", "b.yaml", "--date", "2026-05-01", "--no-figures"});
  INFO(b1.out << b1.err);
  CHECK(b1.exit_code == 0);
  CHECK_THAT(b1.out, Catch::StartsWith("nightly-nightly-b-2026-05-01: pinned as the baseline: baseline \"nightly-nightly-b\""));
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM runs r JOIN campaigns c ON c.id = r.campaign_id "
                   "WHERE c.label = 'nightly-nightly-b-2026-05-01' AND r.state = 'succeeded'") == 6);
  // A later night of b is judged against b's pin; identical samples are unchanged, not inconclusive.
  const auto b2 = box.sweep({"nightly", "b.yaml", "--date", "2026-05-02", "--no-figures"});
  INFO(b2.out << b2.err);
  CHECK(b2.exit_code == 0);
  CHECK_THAT(b2.out, Catch::StartsWith("nightly-nightly-b-2026-05-02: passed: against nightly-nightly-b-2026-05-01 "
                                       "(baseline \"nightly-nightly-b\"): 0 missing, 0 regressed, 0 improved, 2 unchanged"));
  // A noisy change on a's next night decides nothing: it says so, and --fail-on inconclusive fails it.
  box.write("shift.txt", "1\n");
  const auto a2 = box.sweep({"nightly", "a.yaml", "--date", "2026-05-02", "--no-figures"});
  INFO(a2.out << a2.err);
  CHECK(a2.exit_code == 0);
  CHECK_THAT(a2.out, Catch::StartsWith("nightly-nightly-a-2026-05-02: UNDECIDED, every comparison was inconclusive: "));
  // The report a CI user clicks opens with the verdict and the baseline, in every format.
  const std::string dir = box.path("reports/nightly-nightly-a-2026-05-02");
  CHECK_THAT(read_file(dir + "/report.md"),
             Catch::StartsWith("# Campaign nightly-nightly-a-2026-05-02\n\n## Verdict: UNDECIDED, every comparison was "
                               "inconclusive\n\nagainst nightly-nightly-a-2026-05-01 (baseline \"nightly-nightly-a\", pinned 20") &&
                 Catch::Contains("0 unchanged, 0 changed, 2 inconclusive (2 comparisons).\n\n- n=1 speed: inconclusive +"));
  const std::string html = read_file(dir + "/report.html");
  CHECK(html.find("<section id=\"verdict\" class=\"ok\"><h2>Verdict: UNDECIDED") < html.find("<h2>Tables</h2>"));
  CHECK_THAT(read_file(dir + "/report.json"),
             Catch::StartsWith("{\"version\": 8, \"verdict\": {\"outcome\": \"UNDECIDED, every comparison was inconclusive\", "
                               "\"failed\": false, \"baseline\": \"nightly-nightly-a\", \"baseline_campaign\": \"nightly-nightly-a-2026-05-01\""));
  CHECK(box.sweep({"nightly", "a.yaml", "--date", "2026-05-02", "--no-figures", "--fail-on", "inconclusive"}).exit_code == 1);
  CHECK_THAT(read_file(dir + "/report.md"), Catch::Contains("## Verdict: INCONCLUSIVE\n"));
  CHECK_THAT(read_file(dir + "/report.html"), Catch::Contains("<section id=\"verdict\" class=\"failed\"><h2>Verdict: INCONCLUSIVE"));
  // A pin of another experiment is refused, with the command that re-pins.
  const auto crossed = box.sweep({"nightly", "b.yaml", "--date", "2026-05-03", "--no-figures", "--baseline", "nightly-nightly-a"});
  INFO(crossed.out << crossed.err);
  CHECK(crossed.exit_code == 7);
  CHECK_THAT(crossed.out, Catch::Contains("COULD NOT COMPARE: cannot compare nightly-nightly-b-2026-05-03 with baseline "
                                          "nightly-nightly-a-2026-05-01: the baseline is experiment `nightly-a`") &&
                              Catch::Contains("sweep baseline set nightly-nightly-b-2026-05-03 --name nightly-nightly-a"));
}

TEST_CASE("nightly: a night whose runs all failed is FAILED (exit 8), whatever --metrics asks") {
  Sandbox box;
  box.write("shift.txt", "0\n");
  box.write("a.yaml", noisy(box, "a"));
  REQUIRE(box.sweep({"nightly", "a.yaml", "--date", "2026-06-01", "--no-figures"}).exit_code == 0);
  std::filesystem::remove(box.path("shift.txt"));
  const auto failed = box.sweep({"nightly", "a.yaml", "--date", "2026-06-02", "--metrics", "speed"});
  INFO(failed.out << failed.err);
  CHECK(failed.exit_code == 8);
  CHECK_THAT(failed.out, Catch::StartsWith("nightly-a-2026-06-02: FAILED: 6 of 6 runs failed"));
  CHECK(box.sweep({"nightly", "a.yaml", "--date", "2026-06-02", "--metrics", "speed", "--threshold", "0.5"}).exit_code == 8);
  CHECK_THAT(read_file(box.path("reports/nightly-a-2026-06-02/report.md")),
             Catch::Contains("\n## Verdict: FAILED\n\n6 of 6 runs failed.\n"));
  // The failed-runs table ends with a blank line: the history after it is not read as its rows.
  const std::string md = read_file(box.path("reports/nightly-a-2026-06-02/report.md"));
  const auto table = md.find("| point | repetition |");
  REQUIRE(table != std::string::npos);
  const auto end = md.find("\n\n", table);
  REQUIRE(end != std::string::npos);
  for (std::size_t line = table; line < end; line = md.find('\n', line) + 1) CHECK(md[line] == '|');
  CHECK_THAT(md.substr(end), Catch::Contains("by night"));
  CHECK(box.sweep({"nightly", "a.yaml", "--date", "June"}).exit_code == 2);  // usage
}

TEST_CASE("nightly: a database whose nights are labelled nightly-<date> goes on with them") {
  Sandbox box;
  box.write("shift.txt", "0\n");
  box.write("a.yaml", noisy(box, "a"));
  REQUIRE(box.sweep({"run", "a.yaml", "--label", "nightly-2026-07-01"}).exit_code == 0);
  REQUIRE(box.sweep({"baseline", "set", "nightly-2026-07-01", "--name", "nightly"}).exit_code == 0);
  const auto next = box.sweep({"nightly", "a.yaml", "--date", "2026-07-02", "--no-figures"});
  INFO(next.out << next.err);
  CHECK(next.exit_code == 0);
  CHECK_THAT(next.out, Catch::StartsWith("nightly-2026-07-02: passed: against nightly-2026-07-01 (baseline \"nightly\")"));
  // Another experiment on a date the old series holds: its own series, never that campaign.
  box.write("b.yaml", noisy(box, "b"));
  const auto b = box.sweep({"nightly", "b.yaml", "--date", "2026-07-02", "--no-figures"});
  INFO(b.out << b.err);
  CHECK_THAT(b.out, Catch::StartsWith("nightly-b-2026-07-02: pinned as the baseline"));
}
