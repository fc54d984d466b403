// spec::load_text: `repetitions`, a number or {min, max, until: {metric, ci95_rel}}.
#include "load_helpers.h"

using namespace sweep;
using namespace sweep::spec;
using spec_test::kHead;
using spec_test::load;
using spec_test::load_error;

TEST_CASE("repetitions: a number is both the planned and the most runs, with no target") {
  const Experiment e = load(kHead + "repetitions: 5\n");
  CHECK(e.repetitions == 5);
  CHECK(e.max_repetitions == 5);
  CHECK_FALSE(e.until);
}

TEST_CASE("repetitions: min, max and until make them adaptive, and --set replaces them with a number") {
  const std::string yaml = kHead + "repetitions:\n  min: 3\n  max: 20\n  until: {metric: samples_per_s, ci95_rel: 0.02}\n";
  const Experiment e = load(yaml);
  CHECK(e.repetitions == 3);
  CHECK(e.max_repetitions == 20);
  REQUIRE(e.until);
  CHECK(e.until->metric == "samples_per_s");
  CHECK(e.until->ci95_rel == 0.02);
  CHECK(e.until->where.str() == "x.yaml:9:10");
  const Experiment fixed = load(yaml, {{"repetitions", "4"}});
  CHECK(fixed.repetitions == 4);
  CHECK(fixed.max_repetitions == 4);
  CHECK_FALSE(fixed.until);
}

TEST_CASE("repetitions: each mistake is named where it is") {
  const auto err = [](const std::string& body) { return load_error(kHead + "repetitions:\n" + body); };
  CHECK(err("  min: 3\n  max: 20\n") ==
        "x.yaml:7:3: \"repetitions\" as a map needs \"min\", \"max\" and \"until\" (or give one number of runs per "
        "point, e.g. repetitions: 5)");
  CHECK(err("  min: 1\n  max: 20\n  until: {metric: t, ci95_rel: 0.02}\n") ==
        "x.yaml:7:8: \"repetitions.min\" must be an integer from 2 (an interval needs two runs) to 10000, got \"1\"");
  CHECK(err("  min: 3\n  max: 10001\n  until: {metric: t, ci95_rel: 0.02}\n") ==
        "x.yaml:8:8: \"repetitions.max\" must be an integer from 2 to 10000, got \"10001\"");
  CHECK(err("  min: 5\n  max: 4\n  until: {metric: t, ci95_rel: 0.02}\n") ==
        "x.yaml:8:8: \"repetitions.max\" (4) is below \"repetitions.min\" (5)");
  CHECK(err("  min: 3\n  max: 9\n  until: {metric: t, ci95_rel: 2}\n") ==
        "x.yaml:9:32: \"repetitions.until.ci95_rel\" must be a fraction above 0 and below 1 (0.02 is 2% of the "
        "mean), got \"2\"");
  CHECK(err("  min: 3\n  max: 9\n  until: {metric: t}\n") ==
        "x.yaml:9:10: \"repetitions.until\" needs \"metric\" (whose mean to make precise) and \"ci95_rel\" (the 95% "
        "interval's half-width as a fraction of the mean, e.g. 0.02)");
  CHECK(err("  min: 3\n  max: 9\n  util: {metric: t}\n") == "x.yaml:9:3: unknown key \"util\" (did you mean \"until\"?)");
}

TEST_CASE("repetitions: at most 10000 runs a point, refused before anything is planned") {
  CHECK(load(kHead + "repetitions: 10000\n").repetitions == 10000);
  CHECK(load_error(kHead + "repetitions: 1000000000\n") ==
        "x.yaml:6:14: \"repetitions\" must be an integer from 1 to 10000, or {min, max, until}, got \"1000000000\"");
}
