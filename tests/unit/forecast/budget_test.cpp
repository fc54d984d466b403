#include "forecast/budget.h"

#include <catch2/catch.hpp>

#include "util/error.h"

using namespace sweep;
using namespace sweep::forecast;

TEST_CASE("budget: --budget values read, and bad ones refused naming the value") {
  const auto b = parse_budget("12.5 gpu-hours");
  REQUIRE(b);
  CHECK(b->unit == Budget::Unit::gpu_hours);
  CHECK(b->limit == 12.5);
  CHECK(parse_budget("3 node-hours")->unit == Budget::Unit::node_hours);
  CHECK(parse_budget("3node-hours")->limit == 3);  // one word as well
  CHECK_FALSE(parse_budget("none"));
  for (const char* bad : {"12", "12 hours", "-1 gpu-hours", "x gpu-hours", "nan gpu-hours", "1 gpu-hours extra", "", "1  gpu-hours", " 1 gpu-hours", "inf gpu-hours"}) {
    INFO(bad);
    CHECK_THROWS_WITH(parse_budget(bad), Catch::Contains("expected N gpu-hours, N node-hours or none"));
  }
}

TEST_CASE("budget refusal names the budget, the totals and the top five points") {
  std::vector<PointForecast> points;
  for (int i = 1; i <= 7; ++i)
    points.push_back({"p" + std::to_string(i), "x=" + std::to_string(i), 1, 1, 1, 360.0 * i, 720.0 * i, Source::history});
  const Totals t = totals(points, 1);  // upper: 0.2 * (1+...+7) = 5.6 GPU-hours; expected 2.8
  CHECK_FALSE(budget_refusal({Budget::Unit::gpu_hours, 6, "--budget"}, points, t));
  const auto refusal = budget_refusal({Budget::Unit::gpu_hours, 5, "--budget"}, points, t);
  REQUIRE(refusal);
  CHECK_THAT(*refusal, Catch::Contains("5.600 GPU-hours (expected 2.800), exceeds the budget of 5 GPU-hours (--budget)"));
  CHECK_THAT(*refusal, Catch::Contains("x=7: 1.4 GPU-hours upper"));
  CHECK_THAT(*refusal, Catch::Contains("x=3: 0.6 GPU-hours upper"));
  CHECK_THAT(*refusal, !Catch::Contains("x=2:"));
  CHECK(refusal->find("x=7") < refusal->find("x=6"));
  // In node-hours, the same figures (one node, one GPU per run).
  CHECK(budget_refusal({Budget::Unit::node_hours, 5, "site.yaml:3:14"}, points, t)->find("node-hours (site.yaml:3:14)") !=
        std::string::npos);
}

TEST_CASE("budget refusal when a point is unknown names it and says to set time") {
  std::vector<PointForecast> points{{"a", "x=1", 1, 1, 1, 10.0, 10.0, Source::history}, {"b", "x=2", 1, 1, 1}};
  const auto refusal = budget_refusal({Budget::Unit::gpu_hours, 1000, "--budget"}, points, totals(points, 1));
  REQUIRE(refusal);
  CHECK_THAT(*refusal, Catch::Contains("upper forecast is unknown: 1 of 2 points have no duration (x=2)"));
  CHECK_THAT(*refusal, Catch::Contains("set their `time`"));
}
