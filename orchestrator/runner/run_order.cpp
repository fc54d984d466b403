#include "runner/run_order.h"

#include <fmt/core.h>

#include <algorithm>
#include <numeric>
#include <tuple>
#include <unordered_map>

namespace sweep::runner {
namespace {

/// splitmix64: a fixed generator, so that a seed means the same order everywhere (std::shuffle and
/// the standard distributions are not specified bit for bit).
std::uint64_t next(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// A uniform index in [0, bound) without modulo bias (rejection of the incomplete last block).
std::size_t below(std::uint64_t& state, std::size_t bound) {
  const std::uint64_t b = bound;
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % b;
  for (;;) {
    const std::uint64_t x = next(state);
    if (x < limit) return static_cast<std::size_t>(x % b);
  }
}

}  // namespace

std::vector<std::size_t> run_order(const std::vector<RunKey>& runs, const spec::RunOrder& order) {
  std::vector<std::size_t> idx(runs.size());
  std::iota(idx.begin(), idx.end(), std::size_t{0});
  if (order.kind == spec::RunOrder::Kind::random) {
    std::uint64_t state = order.seed;
    for (std::size_t i = idx.size(); i > 1; --i) std::swap(idx[i - 1], idx[below(state, i)]);
    return idx;
  }
  std::unordered_map<std::string, std::size_t> first;  // point -> rank of its first appearance
  for (const RunKey& r : runs) first.try_emplace(r.point_id, first.size());
  const bool grouped = order.kind == spec::RunOrder::Kind::grouped;
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
    const std::size_t pa = first.at(runs[a].point_id), pb = first.at(runs[b].point_id);
    return grouped ? std::tie(pa, runs[a].repetition) < std::tie(pb, runs[b].repetition)
                   : std::tie(runs[a].repetition, pa) < std::tie(runs[b].repetition, pb);
  });
  return idx;
}

std::string describe(const spec::RunOrder& order) {
  switch (order.kind) {
    case spec::RunOrder::Kind::grouped: return "grouped";
    case spec::RunOrder::Kind::random: return fmt::format("random (seed {})", order.seed);
    case spec::RunOrder::Kind::interleaved: break;
  }
  return "interleaved";
}

}  // namespace sweep::runner
