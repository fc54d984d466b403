#include "telemetry/run_metrics.h"

#include <algorithm>
#include <iterator>

namespace sweep::telemetry {

bool is_run_metric(std::string_view name) {
  return std::find(std::begin(kRunMetrics), std::end(kRunMetrics), name) != std::end(kRunMetrics);
}

}  // namespace sweep::telemetry
