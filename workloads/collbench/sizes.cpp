#include "collbench/sizes.h"

#include "collbench/collective.h"

#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace sweep::collbench {
namespace {

struct Suffix {
  std::string_view text;
  std::uint64_t multiple;
};

constexpr std::array<Suffix, 5> kBinary{{{"", 1}, {"K", 1ull << 10}, {"M", 1ull << 20}, {"G", 1ull << 30}, {"T", 1ull << 40}}};
constexpr std::array<Suffix, 5> kDecimal{{{"", 1}, {"K", 1000}, {"M", 1000000}, {"B", 1000000000}, {"G", 1000000000}}};

template <std::size_t N>
std::optional<std::uint64_t> scaled(std::string_view text, const std::array<Suffix, N>& suffixes) {
  double number = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec != std::errc{} || number < 0 || !std::isfinite(number)) return std::nullopt;
  const std::string_view rest = text.substr(static_cast<std::size_t>(end - text.data()));
  for (const auto& s : suffixes) {
    if (rest != s.text) continue;
    const double value = number * static_cast<double>(s.multiple);
    if (value >= 18446744073709551615.0 || value != std::floor(value)) return std::nullopt;
    return static_cast<std::uint64_t>(value);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::uint64_t> parse_bytes(std::string_view text) {
  if (text.ends_with("iB")) text.remove_suffix(2);
  else if (text.size() > 1 && text.ends_with("B")) text.remove_suffix(1);
  return scaled(text, kBinary);
}

std::optional<std::uint64_t> parse_count(std::string_view text) { return scaled(text, kDecimal); }

std::string format_bytes(std::uint64_t bytes) {
  constexpr std::array<std::string_view, 5> kUnits{"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < kUnits.size()) value /= 1024, ++unit;
  return fmt::format("{:g} {}", value, kUnits[unit]);
}

bool reduces(comm::Collective op) { return collective(op).reduces; }

Shape shape_for(comm::Collective op, std::uint64_t requested, comm::DType type, int ranks) {
  const CollectiveDef& d = collective(op);
  const std::size_t es = comm::size_of(type);
  const auto n = static_cast<std::size_t>(ranks);
  const std::size_t count = d.per_rank_count ? requested / (es * n) : requested / es;
  const std::size_t total = d.per_rank_count ? count * n : count;
  return Shape{count, d.input_of_all ? total : count, d.output_of_all ? total : count, total * es};
}

double bus_factor(comm::Collective op, int ranks) { return collective(op).bus_factor(ranks); }

std::vector<std::uint64_t> size_steps(std::uint64_t min_bytes, std::uint64_t max_bytes, std::uint64_t factor) {
  if (min_bytes > max_bytes)
    throw std::invalid_argument(fmt::format("--min-bytes {} is larger than --max-bytes {}", min_bytes, max_bytes));
  if (min_bytes == max_bytes) return {min_bytes};
  if (factor < 2) throw std::invalid_argument(fmt::format("--factor must be at least 2, got {}", factor));
  if (min_bytes == 0) throw std::invalid_argument("--min-bytes must be positive when it differs from --max-bytes");
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t s = min_bytes; s <= max_bytes; s *= factor) {
    sizes.push_back(s);
    if (s > max_bytes / factor) break;
  }
  return sizes;
}

}  // namespace sweep::collbench
