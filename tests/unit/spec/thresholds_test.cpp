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
