#include "forecast/records.h"

namespace sweep::forecast {

store::ForecastRecord to_record(const PointForecast& p) {
  return {p.point_id, p.runs, p.nodes, p.gpus, p.expected_s, p.upper_s, std::string(source_name(p.source)), p.energy_j};
}

PointForecast from_record(const store::ForecastRecord& r, const std::string& label) {
  PointForecast p{r.point_id, label.empty() ? r.point_id : label, r.runs, r.nodes, r.gpus, r.expected_s, r.upper_s};
  p.source = source_from_name(r.source).value_or(Source::none);
  p.energy_j = r.energy_j;
  return p;
}

std::vector<store::ForecastRecord> to_records(const std::vector<PointForecast>& points) {
  std::vector<store::ForecastRecord> out;
  for (const auto& p : points) out.push_back(to_record(p));
  return out;
}

}  // namespace sweep::forecast
