#include "forecast/wall_time.h"

#include <algorithm>
#include <functional>
#include <queue>

namespace sweep::forecast {

double wall_seconds(const std::vector<PointForecast>& points, std::size_t slots) {
  int most_runs = 0;
  for (const PointForecast& p : points) most_runs = std::max(most_runs, p.runs);
  // Ends of the runs in flight, earliest first; a new run starts when one ends.
  std::priority_queue<double, std::vector<double>, std::greater<>> ends;
  double wall = 0;
  for (int rep = 0; rep < most_runs; ++rep)
    for (const PointForecast& p : points) {
      if (rep >= p.runs) continue;
      double start = 0;
      if (slots > 0 && ends.size() >= slots) {
        start = ends.top();
        ends.pop();
      }
      const double end = start + p.expected_s.value_or(0);
      ends.push(end);
      wall = std::max(wall, end);
    }
  return wall;
}

}  // namespace sweep::forecast
