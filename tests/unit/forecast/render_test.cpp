#include "forecast/render.h"

#include <catch2/catch.hpp>

using namespace sweep::forecast;

TEST_CASE("forecast rendering: the table, the totals line and the JSON object") {
  const std::vector<PointForecast> points{{"a", "x=1", 2, 1, 4, 90.0, 180.0, Source::history, 3},
                                          {"b", "x=2", 1, 1, 0, 60.0, 60.0, Source::time_limit},
                                          {"c", "x=3", 1, 1, 0}};
  const Totals t = totals(points, 2);
  const Concurrency c{2, "--jobs 2"};
  const std::string line = totals_line(t, c);
  CHECK_THAT(line, Catch::StartsWith("forecast: 3 points, 4 runs; 0.2000 GPU-hours expected, 0.4000 upper"));
  CHECK_THAT(line, Catch::Contains("1 of 3 points unknown (no history, model or time limit: x=3), not counted"));
  const std::string table = text_table(points, t, c);
  CHECK_THAT(table, Catch::Contains("history (3 runs)"));
  CHECK_THAT(table, Catch::Contains("time_limit (upper bound)"));
  CHECK_THAT(table, Catch::Contains("unknown"));
  const std::string json = json_object(points, t, c, "");
  CHECK_THAT(json, Catch::Contains(R"({"id":"a","label":"x=1","runs":2,"nodes":1,"gpus":4,"expected_s":90,"upper_s":180,"source":"history","history_runs":3)"));
  CHECK_THAT(json, Catch::Contains(R"("expected_s":null,"upper_s":null,"source":"none")"));
  CHECK_THAT(json, Catch::Contains(R"("unknown":["x=3"]},"concurrency":2,"expected_start":null})"));
  const Totals known = totals({points[0], points[1]}, 2);
  CHECK_THAT(totals_line(known, c), Catch::Contains("wall time about 2m 30s at --jobs 2 (an estimate)"));
}
