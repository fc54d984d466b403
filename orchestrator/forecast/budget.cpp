#include "forecast/budget.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <utility>

#include "util/error.h"

namespace sweep::forecast {
namespace {

constexpr std::array<std::pair<std::string_view, Budget::Unit>, 2> kUnits{
    {{"gpu-hours", Budget::Unit::gpu_hours}, {"node-hours", Budget::Unit::node_hours}}};

double upper_of(const PointForecast& p, Budget::Unit u) {
  return u == Budget::Unit::gpu_hours ? p.gpu_hours(p.upper_s) : p.node_hours(p.upper_s);
}

/// "  p1 (batch=8): 12.5 GPU-hours upper (4 runs x 2 GPUs x 1.56 h)", the five largest.
std::string top_contributors(const std::vector<PointForecast>& points, Budget::Unit u) {
  std::vector<const PointForecast*> order;
  for (const auto& p : points) order.push_back(&p);
  std::stable_sort(order.begin(), order.end(), [u](auto* a, auto* b) { return upper_of(*a, u) > upper_of(*b, u); });
  std::string out;
  for (std::size_t i = 0; i < order.size() && i < 5; ++i) {
    const PointForecast& p = *order[i];
    out += fmt::format("\n  {}: {:.3g} {} upper ({} runs x {} {} x {} s, {})", p.label, upper_of(p, u), unit_name(u),
                       p.runs, u == Budget::Unit::gpu_hours ? p.gpus : p.nodes,
                       u == Budget::Unit::gpu_hours ? "GPUs" : "nodes",
                       p.upper_s ? fmt::format("{:g}", *p.upper_s) : "unknown", source_name(p.source));
  }
  return out;
}

}  // namespace

std::string_view unit_name(Budget::Unit unit) { return unit == Budget::Unit::gpu_hours ? "GPU-hours" : "node-hours"; }

std::optional<Budget> parse_budget(std::string_view text) {
  if (text == "none") return std::nullopt;
  const auto bad = [&] {
    return Error(ErrorKind::usage, fmt::format("--budget \"{}\": expected N gpu-hours, N node-hours or none", text));
  };
  // "N gpu-hours" (the option's two words joined) or "Ngpu-hours".
  double n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || !std::isfinite(n) || n < 0) throw bad();
  auto unit_text = text.substr(static_cast<std::size_t>(end - text.data()));
  if (unit_text.starts_with(' ')) unit_text.remove_prefix(1);
  for (const auto& [name, unit] : kUnits)
    if (unit_text == name) return Budget{unit, n, "--budget"};
  throw bad();
}

std::optional<std::string> budget_refusal(const Budget& b, const std::vector<PointForecast>& points, const Totals& t) {
  const bool gpu = b.unit == Budget::Unit::gpu_hours;
  const double upper = gpu ? t.gpu_hours_upper : t.node_hours_upper;
  const double expected = gpu ? t.gpu_hours_expected : t.node_hours_expected;
  if (t.unknown.empty() && upper <= b.limit) return std::nullopt;
  std::string unknown;
  for (const auto& label : t.unknown) unknown += (unknown.empty() ? "" : ", ") + label;
  std::string head =
      t.unknown.empty()
          ? fmt::format("the campaign's upper forecast, {:.3f} {} (expected {:.3f}), exceeds the budget of {:g} {} ({})",
                        upper, unit_name(b.unit), expected, b.limit, unit_name(b.unit), b.from)
          : fmt::format("the campaign's upper forecast is unknown: {} of {} points have no duration ({}); set their "
                        "`time` (resources.time) to stay within the budget of {:g} {} ({}); the known points' upper "
                        "total is {:.3f} {} (expected {:.3f})",
                        t.unknown.size(), t.points, unknown, b.limit, unit_name(b.unit), b.from, upper,
                        unit_name(b.unit), expected);
  return head + "; the points that contribute most:" + top_contributors(points, b.unit) +
         "\n(--budget N gpu-hours|node-hours sets another, --budget none lifts it)";
}

}  // namespace sweep::forecast
