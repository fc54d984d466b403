#include "report/forecast_actual.h"

#include <catch2/catch.hpp>

using namespace sweep;
using namespace sweep::report;

TEST_CASE("forecast against actual: the median elapsed and GPU-hours used per point, and the totals") {
  CampaignData d;
  d.points = {{"p1", 0, {{"n", "1", "int", false}, {"half", "0.5", "float", true}}}, {"p2", 1, {{"n", "2", "int", false}}}};
  const double elapsed[] = {10, 30, 20};
  for (int rep = 0; rep < 3; ++rep) {
    store::RunRecord r;
    r.point_id = "p1";
    r.state = rep == 1 ? store::RunState::failed : store::RunState::succeeded;
    r.elapsed_s = elapsed[rep];
    d.runs.push_back(r);
  }
  store::RunRecord pending;
  pending.point_id = "p2";
  d.runs.push_back(pending);
  d.forecast = {{"p1", 3, 1, 2, 15.0, 25.0, "history", std::nullopt}, {"p2", 1, 1, 4, std::nullopt, std::nullopt, "none", std::nullopt}};
  const ForecastActual f = forecast_actual(d);
  REQUIRE(f.rows.size() == 2);
  CHECK(f.rows[0].label == "n=1");
  CHECK(f.rows[0].ended == 3);  // a failed run took its time too
  CHECK(*f.rows[0].median_elapsed_s == 20);
  CHECK(f.rows[0].gpu_hours_expected == Approx(3 * 2 * 15 / 3600.0));
  CHECK(f.rows[0].gpu_hours_used == Approx(2 * 60 / 3600.0));
  CHECK_FALSE(f.rows[1].median_elapsed_s);
  CHECK(f.unknown == 1);
  const std::string md = forecast_actual_markdown(f);
  CHECK_THAT(md, Catch::Contains("| n=1 | 3 | 2 | 15 | 25 | history | 3 | 20 | 0.0250 | 0.0417 | 0.0333 |"));
  CHECK_THAT(md, Catch::Contains("| n=2 | 1 | 4 | unknown | unknown | none | 0 | unknown |"));
  CHECK_THAT(md, Catch::Contains("1 points had no forecast duration"));
  CHECK_THAT(forecast_actual_html(f), Catch::Contains("<td>n=1</td>"));
  CHECK_THAT(forecast_actual_json(f), Catch::Contains(R"("median_elapsed_s": 20)"));
  CHECK(forecast_actual_json(forecast_actual(CampaignData{})) == "null");
  CHECK(forecast_actual_markdown(forecast_actual(CampaignData{})).empty());
}
