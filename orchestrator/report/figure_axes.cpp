#include "report/figure_axes.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

namespace sweep::report {
namespace {

constexpr double kDodgeShare = 0.1;  // of the smallest gap, shared by all the series at one x
constexpr double kMargin = 0.05;     // of the span, beyond the outermost (dodged) point

/// The smallest gap between neighbouring values, in log space when `log`; a value alone gets log(2)
/// (log) or its own magnitude (1 when it is 0).
double smallest_gap(const std::vector<double>& values, bool log) {
  double gap = INFINITY;
  for (std::size_t i = 1; i < values.size(); ++i)
    gap = std::min(gap, log ? std::log(values[i] / values[i - 1]) : values[i] - values[i - 1]);
  if (std::isfinite(gap) && gap > 0) return gap;
  if (log) return std::log(2.0);
  return values.empty() || values.front() == 0 ? 1.0 : std::abs(values.front());
}

/// Series i's shift in the axis's own space (log space when `log`).
double shift(std::size_t i, std::size_t n, const std::vector<double>& values, bool log) {
  if (n < 2) return 0;
  const double step = kDodgeShare * smallest_gap(values, log) / static_cast<double>(n - 1);
  return (static_cast<double>(i) - static_cast<double>(n - 1) / 2) * step;
}

std::string num(double v) { return fmt::format("{:.7g}", v); }

}  // namespace

double dodge(std::size_t i, std::size_t n, const std::vector<double>& values, bool log) {
  const double s = shift(i, n, values, log);
  return log ? std::exp(s) : s;
}

std::string dodged_x(std::size_t i, std::size_t n, const std::vector<double>& values, bool log) {
  const double s = shift(i, n, values, log);
  if (s == 0) return "1";
  return log ? fmt::format("($1*{})", num(std::exp(s))) : fmt::format("($1{:+.7g})", s);
}

XAxis x_axis(const std::vector<double>& values, const std::vector<std::string>& labels, bool log, std::size_t series) {
  XAxis axis;
  if (values.empty() || (log && values.front() <= 0)) return axis;
  const auto space = [log](double v) { return log ? std::log(v) : v; };
  const double lo = space(values.front()) + shift(0, series, values, log);
  const double hi = space(values.back()) - shift(0, series, values, log);
  const double span = hi > lo ? hi - lo : smallest_gap(values, log);
  const double low = lo - kMargin * span, high = hi + kMargin * span;
  axis.low = log ? std::exp(low) : low;
  axis.high = log ? std::exp(high) : high;
  if (log && values.size() <= kMaxValueTics)
    for (std::size_t i = 0; i < values.size() && i < labels.size(); ++i) axis.tics.push_back({labels[i], values[i]});
  return axis;
}

std::string key_setting(std::size_t entries) {
  return entries < 2 ? "unset key\n" : "set key outside top center horizontal samplen 2\n";
}

}  // namespace sweep::report
