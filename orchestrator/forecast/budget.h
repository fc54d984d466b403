#pragma once
// The budget (docs/forecasts.md, "The budget"): a limit in GPU-hours or node-hours that a campaign's
// upper forecast may not exceed. Pure.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "forecast/estimate.h"

namespace sweep::forecast {

struct Budget {
  enum class Unit { gpu_hours, node_hours };
  Unit unit = Unit::gpu_hours;
  double limit = 0;
  std::string from;  // where it was set, for messages: "--budget", "site.yaml:4:3"
};
std::string_view unit_name(Budget::Unit unit);  // "GPU-hours", "node-hours"

/// `--budget`'s value: "N gpu-hours", "N node-hours" (N a non-negative number), or "none" (nullopt:
/// no budget, the site's lifted). Error(usage) naming the value and what is expected otherwise.
std::optional<Budget> parse_budget(std::string_view text);

/// Why `points` (whose totals are `t`) exceed `budget`, a message naming the budget, the upper and
/// expected totals, the unknown points, and the five that contribute most to the upper total; nullopt
/// when the upper total is known and within it.
std::optional<std::string> budget_refusal(const Budget& budget, const std::vector<PointForecast>& points, const Totals& t);

}  // namespace sweep::forecast
