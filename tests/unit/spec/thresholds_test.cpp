// `thresholds:` per metric: a number or an expression over the point's parameters, checked at load;
// and read back from an experiment as stored with a campaign.
#include "load_helpers.h"
#include "spec/load_report.h"

using namespace sweep;
using namespace sweep::spec;
using spec_test::load;
using spec_test::load_error;

namespace {
const std::string kTop = "name: t\nmatrix: {size: [8, 1048576]}\nworkload: {command: x}\n";  // lines 1-3
}  // namespace

TEST_CASE("thresholds: a number per metric, or an expression evaluated per point") {
  const Experiment e = load(kTop + "thresholds:\n  busbw: 0.02\n  time: \"size <= 1024 ? 0.10 : 0.02\"\n");
  REQUIRE(e.thresholds.size() == 2);
  CHECK(e.thresholds[0].metric == "busbw");
  CHECK(e.thresholds[0].value == 0.02);
  CHECK(!e.thresholds[0].expr);
  REQUIRE(e.thresholds[1].expr);
  const std::vector<Value> small{Value(std::int64_t{8})}, large{Value(std::int64_t{1048576})};
  CHECK(e.thresholds[1].expr->eval(small).as_number() == 0.10);
  CHECK(e.thresholds[1].expr->eval(large).as_number() == 0.02);
  CHECK(e.thresholds[1].where.str() == "x.yaml:6:3");
}

TEST_CASE("thresholds: errors name the entry and what was expected") {
  CHECK(load_error(kTop + "thresholds: {busbw: 11}\n") ==
        "x.yaml:4:21: \"thresholds.busbw\" must be a relative change from 0 to 10 (0.02 = 2%), or an expression giving "
        "one, got \"11\"");
  CHECK(load_error(kTop + "thresholds: {busbw: true}\n").find("must be a relative change from 0 to 10") != std::string::npos);
  CHECK_THAT(load_error(kTop + "thresholds: {time: \"sise > 1 ? 0.1 : 0\"}\n"), Catch::Contains("sise"));
  CHECK_THAT(load_error(kTop + "thresholds: {\"bus bw\": 0.1}\n"), Catch::Contains("must be a metric name"));
}

TEST_CASE("thresholds of a stored experiment are read without loading the rest, expressions unbound") {
  const auto t = thresholds_of_experiment(kTop + "thresholds: {busbw: 0.05, time: \"size > 1 ? 0.1 : 0.2\"}\n", "s.yaml");
  REQUIRE(t.size() == 2);
  CHECK(t[0].value == 0.05);
  REQUIRE(t[1].expr);
  CHECK(t[1].expr->names() == std::vector<std::string>{"size"});
  CHECK(thresholds_of_experiment(kTop, "s.yaml").empty());
}

TEST_CASE("references: expected values with relative bounds per system, checked at load") {
  const Experiment e = load(kTop + "references:\n  - {system: lab, metric: busbw, value: 180, lower: -0.05, where: \"size > 8\"}\n"
                                   "  - {metric: time, value: 2.5, upper: 0.1, unit: s}\n");
  REQUIRE(e.references.size() == 2);
  CHECK(e.references[0].system == "lab");
  CHECK(e.references[0].value == 180);
  CHECK(e.references[0].lower == -0.05);
  CHECK_FALSE(e.references[0].upper);
  REQUIRE(e.references[0].where);
  CHECK(e.references[0].at.str() == "x.yaml:5:5");
  CHECK(e.references[1].system == "*");
  CHECK(e.references[1].unit == "s");
  const auto stored = references_of_experiment(e.text, "s.yaml");
  REQUIRE(stored.size() == 2);
  CHECK(stored[0].where->names() == std::vector<std::string>{"size"});
}

TEST_CASE("references and thresholds: expressions may read derived values") {
  const Experiment e = load(kTop + "derived: {big: \"size > 1024\"}\nthresholds: {busbw: \"big ? 0.02 : 0.1\"}\n"
                                   "references: [{metric: busbw, value: 10, lower: -0.1, where: big}]\n");
  REQUIRE(e.references.size() == 1);
  CHECK(e.references[0].where->names() == std::vector<std::string>{"big"});
  REQUIRE(e.thresholds.size() == 1);
}

TEST_CASE("references: errors name the entry and what was expected") {
  const auto err = [](const std::string& entry) { return load_error(kTop + "references:\n  - " + entry + "\n"); };
  CHECK(err("{metric: busbw, value: 180}") == "x.yaml:5:5: the reference of \"busbw\" needs \"lower\" or \"upper\" (or both)");
  CHECK(err("{metric: busbw, lower: -0.1}") == "x.yaml:5:5: a reference needs \"metric\" and \"value\" (and \"lower\" or \"upper\")");
  CHECK(err("{metric: busbw, value: 0, lower: -0.1}") ==
        "x.yaml:5:28: \"references[0].value\" must be a number other than 0 (the bounds are relative to it), got \"0\"");
  CHECK(err("{metric: busbw, value: 1, lower: 0.1}") ==
        "x.yaml:5:38: \"references[0].lower\" must be a relative bound from -1 to 0 (-0.05: at most 5% below), got \"0.1\"");
  CHECK_THAT(err("{metric: busbw, value: 1, upper: 0.1, where: \"sise > 1\"}"), Catch::Contains("sise"));
  CHECK_THAT(err("{metric: busbw, value: 1, upper: 0.1, sistem: lab}"), Catch::Contains("did you mean \"system\""));
}
