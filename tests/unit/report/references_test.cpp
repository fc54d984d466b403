// report::check_references: the reference that applies per point and metric, and its verdict.
#include <catch2/catch.hpp>

#include "campaign_fixture.h"
#include "report/references.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::report;

namespace {

/// Points size=1 and size=2; busbw over three runs: 95, 100, 105 at size 1 and 190, 200, 210 at size 2.
CampaignData campaign() {
  CampaignData d;
  d.campaign.label = "c";
  for (int size : {1, 2}) {
    const std::string id = "p" + std::to_string(size);
    d.points.push_back({id, size - 1, {{"size", std::to_string(size), "int", false}}});
    for (int rep = 0; rep < 3; ++rep)
      fixture::add_value(d, fixture::add_run(d, id, rep), "busbw", size * (95.0 + 5 * rep), "GB/s", "higher");
  }
  return d;
}

spec::Reference reference(const char* system, const char* metric, double value, std::optional<double> lower,
                          std::optional<double> upper, const char* where = nullptr) {
  spec::Reference r;
  r.system = system;
  r.metric = metric;
  r.value = value;
  r.lower = lower;
  r.upper = upper;
  if (where) r.where = spec::Expr::parse(where, SourceLocation{"x.yaml", 9, 12});
  return r;
}

}  // namespace

TEST_CASE("references: the system's own entry wins over the one for any system, per point") {
  const std::vector<spec::Reference> refs{reference("*", "busbw", 100, -0.05, std::nullopt),
                                          reference("lab", "busbw", 250, -0.10, 0.10, "size == 2")};
  const ReferenceCheck other = check_references(campaign(), refs, "other");
  REQUIRE(other.rows.size() == 2);
  CHECK(other.rows[0].passed);  // 100 against 100
  CHECK(other.rows[1].passed);  // 200 against 100: +100%, and no upper bound
  CHECK(other.failed() == 0);

  const ReferenceCheck lab = check_references(campaign(), refs, "lab");
  REQUIRE(lab.rows.size() == 2);
  CHECK(lab.rows[0].reference == 100);  // the lab entry's where is false at size 1
  CHECK(lab.rows[0].passed);
  const ReferenceRow& r = lab.rows[1];
  CHECK(r.point == "size=2");
  CHECK(r.reference == 250);
  CHECK(r.measured == 200);
  CHECK(r.n == 3);
  CHECK(r.unit == "GB/s");
  CHECK(r.deviation == Approx(-0.2));
  CHECK_FALSE(r.passed);
  CHECK(r.reason == "-20.00% is below the lower bound -10.00%");
  CHECK(lab.failed() == 1);
}

TEST_CASE("references: above the upper bound, or not measured, fails") {
  const ReferenceCheck c = check_references(
      campaign(), {reference("*", "busbw", 90, std::nullopt, 0.05, "size == 1"), reference("*", "latency", 2, -0.5, 0.5)}, "");
  REQUIRE(c.rows.size() == 3);
  CHECK(c.rows[0].reason == "+11.11% is above the upper bound +5.00%");
  CHECK(c.rows[1].metric == "latency");
  CHECK(c.rows[1].reason == "not measured: no succeeded run reported it");
  CHECK_FALSE(c.rows[1].measured);
  CHECK(c.failed() == 3);
  CHECK_THAT(references_text(c), Catch::Contains("c on system \"\": 0 of 3 references met, 3 failed"));
  CHECK_THAT(references_json(c), Catch::StartsWith("{\"version\": 1, \"campaign\": \"c\", \"system\": \"\", \"failed\": 3,"));
  CHECK_THAT(references_junit(c), Catch::Contains("tests=\"3\" failures=\"3\""));
}

TEST_CASE("references: a site file's general entries are left out where the campaign does not fit them") {
  spec::Reference other_metric = reference("*", "samples_per_s", 1000, -0.1, std::nullopt);
  spec::Reference other_param = reference("*", "busbw", 1, -0.1, std::nullopt, "backend == 'nccl'");
  other_metric.general = other_param.general = true;
  const ReferenceCheck c = check_references(campaign(), {reference("*", "busbw", 100, -0.05, std::nullopt, "size == 1"),
                                                         other_metric, other_param}, "");
  REQUIRE(c.rows.size() == 1);  // only the experiment's entry: the site's name what this campaign lacks
  CHECK(c.rows[0].passed);
  other_param.general = false;  // the same entry in an experiment is an error at its place
  CHECK_THROWS_WITH(check_references(campaign(), {other_param}, ""), Catch::StartsWith("x.yaml:9:12: unknown"));
}

TEST_CASE("references: none for the system, or a where that is not a condition, are errors") {
  try {
    check_references(campaign(), {reference("lab", "busbw", 100, -0.05, std::nullopt)}, "other");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::incomparable);
    CHECK(e.message() == "no references for system \"other\" at any point of c (systems named: lab)");
  }
  try {
    check_references(campaign(), {reference("*", "busbw", 100, -0.05, std::nullopt, "size + 1")}, "");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::invalid_experiment);
    CHECK(std::string(e.what()) == "x.yaml:9:12: the reference's \"where\" must be true or false, got 2 at point size=1");
  }
  CHECK_THROWS_WITH(check_references(campaign(), {reference("*", "busbw", 100, -0.05, std::nullopt, "nodes == 1")}, ""),
                    Catch::StartsWith("x.yaml:9:12: unknown"));
}
