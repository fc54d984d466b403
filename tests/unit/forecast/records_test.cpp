#include "forecast/records.h"

#include <catch2/catch.hpp>

using namespace sweep::forecast;

TEST_CASE("forecast rows: a point's forecast to a campaign_forecasts row and back") {
  PointForecast p{"a", "x=1", 2, 1, 4, 90.0, 180.0, Source::history, 3, 5.0};
  const sweep::store::ForecastRecord r = to_record(p);
  CHECK(r == sweep::store::ForecastRecord{"a", 2, 1, 4, 90.0, 180.0, "history", 5.0});
  const PointForecast back = from_record(r, "x=1");
  CHECK(back.source == Source::history);
  CHECK(*back.upper_s == 180);
  CHECK(from_record({"b", 1, 1, 0, {}, {}, "tea leaves", {}}, "").source == Source::none);
}
