// `sweep compare` on two real campaigns of one experiment: the candidate's throughput drops 20% on
// one point (a regression), stays put on the other (unchanged); --fail-on, JSON and JUnit outputs.
#include <catch2/catch.hpp>

#include "e2e/harness.h"

using namespace e2e;

TEST_CASE("sweep compare gives each point and metric a verdict and gates on regressions") {
  Sandbox box;
  write_speed_experiment(box, 5);
  box.write("shift-1.txt", "0\n");
  box.write("shift-2.txt", "0\n");
  REQUIRE(box.sweep({"run", "speed.yaml", "--label", "base"}).exit_code == 0);
  box.write("shift-1.txt", "-200\n");  // point n=1: 1002 -> 802, -20%
  const auto cand = box.sweep({"run", "speed.yaml", "--label", "cand"});
  INFO(cand.out << cand.err);
  REQUIRE(cand.exit_code == 0);

  const auto text = box.sweep({"compare", "base", "cand"});
  INFO(text.out << text.err);
  REQUIRE(text.exit_code == 0);  // no --fail-on: a report, not a gate
  CHECK_THAT(text.out, Catch::Contains("n=1") && Catch::Contains("speed (it/s)") && Catch::Contains("-19.96%"));
  CHECK_THAT(text.out, Catch::Contains("cand vs base: regressed: 0 missing, 1 regressed, 0 improved, 1 unchanged, 0 changed, 0 inconclusive"));

  const auto gate = box.sweep({"compare", "base", "cand", "--fail-on", "regressed"});
  CHECK(gate.exit_code == 1);
  CHECK(box.sweep({"compare", "base", "base", "--fail-on", "regressed"}).exit_code == 0);
  // A threshold above the drop turns the regression into "unchanged".
  CHECK(box.sweep({"compare", "base", "cand", "--fail-on", "regressed", "--threshold", "0.25"}).exit_code == 0);

  const auto json = box.sweep({"compare", "base", "cand", "--format", "json"});
  REQUIRE(json.exit_code == 0);
  CHECK_THAT(json.out, Catch::StartsWith("{\"version\": 5, \"baseline\": \"base\", \"candidate\": \"cand\", \"gate\": \"regressed\", \"correction\": \"holm\", \"matched_by\": [\"n\"], \"ignored\": [], \"differences\": [], \"changed\": [], \"missing\": []"));
  CHECK_THAT(json.out, Catch::Contains("\"verdict\": \"regressed\"") && Catch::Contains("\"verdict\": \"unchanged\""));
  // The two points' p-values are adjusted together (Holm: the smaller one doubled); --correction none keeps Welch's.
  const auto number_after = [](const std::string& out, const std::string& key) {
    return std::stod(out.substr(out.find("\"" + key + "\": ") + key.size() + 4));
  };
  CHECK(number_after(json.out, "welch_p_adjusted") == Approx(2 * number_after(json.out, "welch_p")));
  const auto plain = box.sweep({"compare", "base", "cand", "--format", "json", "--correction", "none"});
  CHECK_THAT(plain.out, Catch::Contains("\"correction\": \"none\""));
  CHECK(number_after(plain.out, "welch_p_adjusted") == number_after(plain.out, "welch_p"));
  CHECK(box.sweep({"compare", "base", "cand", "--correction", "bonferroni"}).exit_code == 2);

  const auto junit = box.sweep({"compare", "base", "cand", "--format", "junit", "--output", "compare.xml"});
  REQUIRE(junit.exit_code == 0);
  const std::string xml = read_file(box.path("compare.xml"));
  CHECK_THAT(xml, Catch::Contains("<testsuite name=\"cand vs base\" tests=\"2\" failures=\"1\" skipped=\"0\">"));
  CHECK_THAT(xml, Catch::Contains("<failure message=\"regressed -19.96% (p ") &&
                      Catch::Contains("<property name=\"correction\" value=\"holm\"/>"));

  // The candidate's experiment may give each metric its own threshold, an expression per point; an
  // explicit --threshold applies to every metric instead.
  box.write("speed.yaml", read_file(box.path("speed.yaml")) + "thresholds: {speed: \"n == 1 ? 0.25 : 0.01\"}\n");
  REQUIRE(box.sweep({"run", "speed.yaml", "--label", "cand2"}).exit_code == 0);
  const auto own = box.sweep({"compare", "base", "cand2", "--format", "json", "--fail-on", "regressed"});
  INFO(own.out << own.err);
  CHECK(own.exit_code == 0);  // -20% on n=1 is within its 25%
  CHECK_THAT(own.out, Catch::Contains("\"threshold\": 0.25") && Catch::Contains("\"threshold\": 0.01") &&
                          !Catch::Contains("\"verdict\": \"regressed\""));
  CHECK(box.sweep({"compare", "base", "cand2", "--fail-on", "regressed", "--threshold", "0"}).exit_code == 1);
  // A site file's thresholds apply where the experiment gives none (cand's experiment has none).
  const std::string site = box.write("site.yaml", "format: 1\nthresholds: {speed: 0.3}\n");
  CHECK(box.sweep({"compare", "base", "cand", "--fail-on", "regressed", "--site", site}).exit_code == 0);
  CHECK(box.sweep({"compare", "base", "cand", "--fail-on", "regressed"}).exit_code == 1);

  const auto missing = box.sweep({"compare", "base", "nope"});
  CHECK(missing.exit_code == 4);
  CHECK_THAT(missing.err, Catch::Contains("no campaign labelled \"nope\""));
  const auto metric = box.sweep({"compare", "base", "cand", "--metrics", "sped"});
  CHECK(metric.exit_code == 2);
  CHECK_THAT(metric.err, Catch::Contains("neither campaign has a metric \"sped\"") && Catch::Contains("\"speed\""));
}

TEST_CASE("a pinned baseline is compared against by name") {
  Sandbox box;
  write_speed_experiment(box, 5);
  box.write("shift-1.txt", "0\n");
  box.write("shift-2.txt", "0\n");
  REQUIRE(box.sweep({"run", "speed.yaml", "--label", "monday"}).exit_code == 0);
  REQUIRE(box.sweep({"run", "speed.yaml", "--label", "tuesday"}).exit_code == 0);
  const auto none = box.sweep({"compare", "--against", "nightly", "tuesday"});
  CHECK(none.exit_code == 4);
  CHECK_THAT(none.err, Catch::Contains("no baseline named \"nightly\""));
  CHECK(box.sweep({"baseline", "set", "mondy", "--name", "nightly"}).exit_code == 4);
  const auto set = box.sweep({"baseline", "set", "monday", "--name", "nightly"});
  REQUIRE(set.exit_code == 0);
  CHECK_THAT(set.out, Catch::Contains("baseline \"nightly\" is now campaign monday"));
  const auto against = box.sweep({"compare", "--against", "nightly", "tuesday", "--fail-on", "regressed"});
  INFO(against.out << against.err);
  CHECK(against.exit_code == 0);
  CHECK_THAT(against.out, Catch::Contains("tuesday vs monday: passed: 0 missing, 0 regressed"));
  REQUIRE(box.sweep({"baseline", "set", "tuesday", "--name", "nightly"}).exit_code == 0);  // a new pin replaces the old
  const auto ls = box.sweep({"baseline", "ls"});
  CHECK_THAT(ls.out, Catch::StartsWith("nightly\ttuesday\tset "));
  CHECK(box.sweep({"compare", "--against", "nightly", "monday", "tuesday"}).exit_code == 2);
}

