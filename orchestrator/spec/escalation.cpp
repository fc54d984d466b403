#include "spec/escalation.h"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

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
