#pragma once
// A point's forecast as a row of campaign_forecasts (store::ForecastRecord) and back. Pure.
#include <vector>

#include "forecast/estimate.h"
#include "store/records.h"

namespace sweep::forecast {

store::ForecastRecord to_record(const PointForecast& p);
/// The row as a forecast; an unknown source reads as none. `label` names the point in messages.
PointForecast from_record(const store::ForecastRecord& r, const std::string& label);
std::vector<store::ForecastRecord> to_records(const std::vector<PointForecast>& points);

}  // namespace sweep::forecast
