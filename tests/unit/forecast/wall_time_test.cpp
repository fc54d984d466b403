#include "forecast/wall_time.h"

#include <catch2/catch.hpp>

using namespace sweep::forecast;

TEST_CASE("wall time: runs packed N at a time in interleaved order") {
  const std::vector<PointForecast> points{{"a", "a", 2, 1, 0, 10.0, 10.0, Source::history},
                                          {"b", "b", 2, 1, 0, 30.0, 30.0, Source::history}};
  // One at a time: 10 + 30 + 10 + 30.
  CHECK(wall_seconds(points, 1) == 80);
  // Two at a time, order a0 b0 a1 b1: a0 [0,10], b0 [0,30], a1 [10,20], b1 [20,50].
  CHECK(wall_seconds(points, 2) == 50);
  // All at once: the longest run.
  CHECK(wall_seconds(points, 0) == 30);
  CHECK(wall_seconds(points, 8) == 30);
  CHECK(wall_seconds({}, 1) == 0);
}
