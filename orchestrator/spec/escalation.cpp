#include "spec/escalation.h"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

#include "util/strings.h"

namespace sweep::spec {
namespace {

std::optional<double> whole(std::string_view s) {
  long long v = 0;
  if (s.empty() || s.size() > 12) return std::nullopt;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size() || v < 0) return std::nullopt;
  return static_cast<double>(v);
}

}  // namespace

std::optional<double> slurm_time_seconds(std::string_view text) {
  double days = 0;
  const std::size_t dash = text.find('-');
  if (dash != std::string_view::npos) {
    const auto d = whole(text.substr(0, dash));
    if (!d) return std::nullopt;
    days = *d;
    text = text.substr(dash + 1);
  }
  std::vector<double> v;
  for (const std::string& part : split(text, ':')) {
    const auto n = whole(part);
    if (!n) return std::nullopt;
    v.push_back(*n);
  }
  if (v.empty() || v.size() > 3) return std::nullopt;
  // With days, fields are hours[:minutes[:seconds]]; without, minutes[:seconds] or hours:minutes:seconds.
  const bool hours_first = dash != std::string_view::npos || v.size() == 3;
  const double units[2][3] = {{60, 1, 0}, {3600, 60, 1}};
  double seconds = days * 86400;
  for (std::size_t i = 0; i < v.size(); ++i) seconds += v[i] * units[hours_first ? 1 : 0][i];
  return seconds;
}

std::string slurm_time_text(double seconds) {
  const auto s = static_cast<long long>(std::ceil(seconds));
  const long long days = s / 86400, h = s % 86400 / 3600, m = s % 3600 / 60, sec = s % 60;
  if (days > 0) return fmt::format("{}-{:02}:{:02}:{:02}", days, h, m, sec);
  return fmt::format("{:02}:{:02}:{:02}", h, m, sec);
}

std::optional<double> slurm_memory_mib(std::string_view text) {
  constexpr std::array<std::pair<char, double>, 4> kUnits{{{'K', 1.0 / 1024}, {'M', 1}, {'G', 1024}, {'T', 1024 * 1024}}};
  double unit = 1;
  if (!text.empty() && !std::isdigit(static_cast<unsigned char>(text.back()))) {
    const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
    const auto it = std::find_if(kUnits.begin(), kUnits.end(), [u](const auto& p) { return p.first == u; });
    if (it == kUnits.end()) return std::nullopt;
    unit = it->second;
    text.remove_suffix(1);
  }
  const auto n = whole(text);
  if (!n || *n == 0) return std::nullopt;
  return *n * unit;
}

std::string slurm_memory_text(double mib) { return fmt::format("{}M", static_cast<long long>(std::ceil(mib))); }

double escalated(double base, const Escalation& e, int failures) {
  if (failures <= 0) return base;
  return std::max(base, std::min(e.max, base * std::pow(e.factor, failures)));
}

}  // namespace sweep::spec
