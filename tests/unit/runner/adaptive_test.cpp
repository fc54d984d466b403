// runner::standings and more_runs: which points get more repetitions, and how many.
#include <catch2/catch.hpp>

#include "runner/adaptive.h"

using namespace sweep;
using runner::more_runs;
using runner::PointStanding;
using runner::standings;
using store::RunState;

namespace {

store::RunRecord run(const char* point, int rep, RunState state) {
  store::RunRecord r;
  r.point_id = point;
  r.repetition = rep;
  r.state = state;
  return r;
}

store::MetricRow row(const char* point, int rep, const char* name, double value, std::int64_t index = 0) {
  return store::MetricRow{0, point, rep, RunState::succeeded, store::MetricRecord{name, index, value, "", ""}};
}

PointStanding standing(const char* point, std::size_t runs, double worst, std::size_t wanted, std::size_t values = 3) {
  return PointStanding{point, runs, 0, stats::Precision{values, worst, wanted, worst <= 0.02}};
}

}  // namespace

TEST_CASE("adaptive: standings read the target metric of succeeded runs, index by index") {
  const spec::RepetitionTarget target{"t", 0.02, {}};
  const std::vector<store::RunRecord> runs{run("a", 0, RunState::succeeded), run("a", 1, RunState::succeeded),
                                           run("a", 2, RunState::failed), run("b", 0, RunState::running)};
  std::vector<store::MetricRow> rows{row("a", 0, "t", 100, 0), row("a", 1, "t", 100, 0), row("a", 0, "t", 50, 1),
                                     row("a", 1, "t", 60, 1), row("a", 0, "other", 1)};
  rows.push_back(store::MetricRow{0, "a", 2, RunState::failed, store::MetricRecord{"t", 0, 1.0, "", ""}});
  const auto s = standings(target, 10, runs, rows);
  REQUIRE(s.size() == 2);
  CHECK(s[0].point_id == "a");
  CHECK(s[0].runs == 3);
  CHECK(s[0].unfinished == 0);
  CHECK(s[0].precision.values == 2);               // the failed run's value is not counted
  CHECK(s[0].precision.worst > 0.5);               // index 1 (50 and 60) decides, not index 0 (100, 100)
  CHECK_FALSE(s[0].precision.met);
  CHECK(s[1].unfinished == 1);
  CHECK(s[1].precision.values == 0);
}

TEST_CASE("adaptive: more runs for the imprecise points only, bounded by max and by doubling") {
  const std::vector<PointStanding> points{
      standing("met", 3, 0.01, 3),        // precise enough
      standing("near", 3, 0.03, 5),       // wants 5 in all: 2 more
      standing("far", 3, 0.50, 200),      // wants far more: doubling caps it at 3 more
      standing("edge", 9, 0.50, 200),     // max 10 leaves 1
      standing("full", 10, 0.50, 200),    // at max
      standing("broken", 3, 1e300, 3, 0)  // no values: its runs failed
  };
  const std::vector<std::pair<std::string, int>> expected{{"near", 2}, {"far", 3}, {"edge", 1}};
  CHECK(more_runs(points, 10) == expected);
}

TEST_CASE("adaptive: failed runs gave no values, so the shortfall is counted in values") {
  // 5 runs, 3 with a value, the rule wants 6 values: 3 more (not 6 - 5 = 1).
  CHECK(more_runs({standing("p", 5, 0.5, 6, 3)}, 20) == std::vector<std::pair<std::string, int>>{{"p", 3}});
}

TEST_CASE("adaptive: nothing is added while any run of the campaign is unfinished") {
  std::vector<PointStanding> points{standing("far", 3, 0.5, 200), standing("other", 3, 0.01, 3)};
  points[1].unfinished = 1;
  CHECK(more_runs(points, 10).empty());
  points[1].unfinished = 0;
  CHECK(more_runs(points, 10).size() == 1);
}

TEST_CASE("adaptive: a point whose estimate is met by its own size still gets one more run") {
  // wanted <= runs happens when the t quantile's estimate disagrees with the half-width by rounding.
  CHECK(more_runs({standing("p", 4, 0.021, 4)}, 10) == std::vector<std::pair<std::string, int>>{{"p", 1}});
}
