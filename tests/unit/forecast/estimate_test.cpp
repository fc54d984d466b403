#include "forecast/estimate.h"

#include <catch2/catch.hpp>

using namespace sweep::forecast;

TEST_CASE("forecast median and nearest-rank p95 of known durations") {
  CHECK(median({3, 1, 2}) == 2);
  CHECK(median({4, 1, 3, 2}) == 2.5);
  // 20 values 1..20: the 95th percentile by nearest rank is the ceil(0.95*20) = 19th smallest.
  std::vector<double> v;
  for (int i = 20; i >= 1; --i) v.push_back(i);
  CHECK(nearest_rank(v, 95) == 19);
  CHECK(nearest_rank({7}, 95) == 7);
  CHECK(nearest_rank({1, 2, 3}, 95) == 3);  // ceil(2.85) = 3
}

TEST_CASE("forecast source order: history, then model, then time limit, then none") {
  PointInput in{"p1", "x=1", 4, 2, 8};
  in.history_s = {10, 30, 20};
  in.model_s = 5;
  in.time_limit_s = 600;
  PointForecast f = estimate_point(in);
  CHECK(f.source == Source::history);
  CHECK(*f.expected_s == 20);
  CHECK(*f.upper_s == 30);
  CHECK(f.history_runs == 3);
  CHECK(f.gpu_hours(f.expected_s) == Approx(4 * 8 * 20 / 3600.0));
  CHECK(f.node_hours(f.upper_s) == Approx(4 * 2 * 30 / 3600.0));
  in.history_s.clear();
  f = estimate_point(in);
  CHECK(f.source == Source::model);
  CHECK(*f.expected_s == 5);
  CHECK(*f.upper_s == 5 * kModelMargin);
  in.model_s.reset();
  f = estimate_point(in);
  CHECK(f.source == Source::time_limit);
  CHECK(*f.expected_s == 600);
  CHECK(*f.upper_s == 600);
  in.time_limit_s.reset();
  f = estimate_point(in);
  CHECK(f.source == Source::none);
  CHECK_FALSE(f.expected_s);
  CHECK(f.gpu_hours(f.expected_s) == 0);
}

TEST_CASE("forecast energy: median GPU plus median CPU joules of the history, times runs in the totals") {
  PointInput in{"p1", "", 3, 1, 1};
  in.history_s = {1, 2};
  in.history_gpu_energy_j = {100, 300, 200};
  in.history_cpu_energy_j = {10, 20};
  const PointForecast f = estimate_point(in);
  CHECK(f.label == "p1");
  REQUIRE(f.energy_j);
  CHECK(*f.energy_j == 215);
  const Totals t = totals({f}, 1);
  REQUIRE(t.energy_j);
  CHECK(*t.energy_j == 645);
}

TEST_CASE("forecast totals sum the points and name the unknown ones") {
  PointForecast a{"a", "x=1", 2, 1, 4, 100.0, 200.0, Source::history};
  PointForecast b{"b", "x=2", 3, 2, 0, 60.0, 60.0, Source::time_limit};
  PointForecast c{"c", "x=3", 1, 1, 1};
  Totals t = totals({a, b}, 1);
  CHECK(t.points == 2);
  CHECK(t.runs == 5);
  CHECK(t.gpu_hours_expected == Approx(2 * 4 * 100 / 3600.0));
  CHECK(t.gpu_hours_upper == Approx(2 * 4 * 200 / 3600.0));
  CHECK(t.node_hours_expected == Approx((2 * 1 * 100 + 3 * 2 * 60) / 3600.0));
  CHECK(t.unknown.empty());
  REQUIRE(t.wall_s);
  CHECK(*t.wall_s == 380);
  CHECK_FALSE(t.energy_j);
  t = totals({a, b, c}, 1);
  CHECK(t.unknown == std::vector<std::string>{"x=3"});
  CHECK_FALSE(t.wall_s);
}

TEST_CASE("forecast source names round-trip") {
  for (Source s : {Source::history, Source::model, Source::time_limit, Source::none})
    CHECK(source_from_name(source_name(s)) == s);
  CHECK_FALSE(source_from_name("guess"));
}
