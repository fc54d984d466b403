#include "matrix/point_limit.h"

#include <fmt/core.h>

namespace sweep::matrix {
namespace {

/// "nodes 1,000 x size 1,000 x dtype 2"
std::string axes(const Expansion& expansion) {
  std::string out;
  for (const auto& [name, size] : expansion.unit_sizes())
    out += fmt::format("{}{} {}", out.empty() ? "" : " x ", name, grouped(size));
  return out;
}

constexpr const char* kHint = "check the axes for a typo, or raise the limit with --max-points (sweep plan lists a "
                              "matrix of any size)";

}  // namespace

std::string grouped(std::uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::optional<std::string> too_many_points(const Expansion& expansion, std::uint64_t max_points) {
  const std::uint64_t combinations = expansion.combinations();
  if (combinations <= max_points || expansion.has_exclusions()) return std::nullopt;
  const std::string count = combinations == UINT64_MAX ? "more than 18,446,744,073,709,551,615" : grouped(combinations);
  return fmt::format("the matrix has {} points ({}), more than --max-points {}: {}", count, axes(expansion),
                     grouped(max_points), kHint);
}

std::string too_many_points_seen(const Expansion& expansion, std::uint64_t max_points) {
  return fmt::format("more than --max-points {} points of the matrix survive its exclusions ({} before them: {}): {}",
                     grouped(max_points), grouped(expansion.combinations()), axes(expansion), kHint);
}

}  // namespace sweep::matrix
