// MetricSamples: metric rows grouped by point and metric as they stream from the store.
#include <catch2/catch.hpp>

#include "report/metric_samples.h"

using namespace sweep;
using namespace sweep::report;
using store::RunState;

TEST_CASE("metric samples: per-run means, every indexed value, and names of failed runs' metrics") {
  MetricSamples m;
  // Run 1 of point a reports t twice (averaged) and busbw at two indices; run 2 once; run 3 failed.
  m.push_back(store::MetricRow{1, "a", 0, RunState::succeeded, {"busbw", 0, 10, "GB/s", "higher"}});
  m.push_back(store::MetricRow{1, "a", 0, RunState::succeeded, {"busbw", 1, 20, "GB/s", "higher"}});
  m.push_back(store::MetricRow{1, "a", 0, RunState::succeeded, {"t", 0, 1, "s", "lower"}});
  m.push_back(store::MetricRow{1, "a", 0, RunState::succeeded, {"t", 1, 3, "s", "lower"}});
  m.push_back(store::MetricRow{2, "a", 1, RunState::succeeded, {"t", 0, 4, "ms", ""}});
  m.push_back(store::MetricRow{3, "b", 0, RunState::failed, {"partial", 0, 7, "", ""}});
  m.push_back(store::MetricRow{4, "b", 0, RunState::succeeded, {"t", 0, 5, "s", "lower"}});

  REQUIRE(m.name_count() == 3);
  CHECK(m.name(2) == "partial");
  CHECK(m.unit(1) == "s");  // the first row's unit
  CHECK(m.better(0) == "higher");
  REQUIRE(m.point_count() == 2);  // the failed run's point only through its succeeded run
  CHECK(m.point_id(0) == "a");
  const auto& a = m.samples(0);
  REQUIRE(a.size() == 2);
  CHECK(a[1].run_means() == std::vector<double>{2, 4});
  CHECK(a[0].run_means() == std::vector<double>{15});
  CHECK(a[0].indexed == std::vector<std::pair<std::int64_t, double>>{{0, 10}, {1, 20}});
  const auto& b = m.samples(1);
  REQUIRE(b.size() == 2);
  CHECK(b[0].empty());
  CHECK(b[1].run_means() == std::vector<double>{5});
}

TEST_CASE("metric samples: names past the limit are counted, not read") {
  MetricSamples m;
  for (std::size_t i = 0; i < MetricSamples::kMaxNames + 3; ++i)
    m.push_back(store::MetricRow{1, "a", 0, RunState::succeeded, {"m" + std::to_string(i), 0, 1, "", ""}});
  m.push_back(store::MetricRow{2, "a", 1, RunState::succeeded, {"m0", 0, 2, "", ""}});  // a known name is still read
  m.push_back(store::MetricRow{2, "a", 1, RunState::succeeded, {"m10001", 0, 2, "", ""}});
  CHECK(m.name_count() == MetricSamples::kMaxNames);
  CHECK(m.skipped_values() == 4);
  CHECK(m.samples(0)[0].run_means() == std::vector<double>{1, 2});
}
