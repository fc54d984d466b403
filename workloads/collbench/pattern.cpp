#include "collbench/pattern.h"

#include "collbench/collective.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sweep::collbench {
namespace {

using comm::ReduceOp;

// Values of reductions cycle through [0, modulus); sum of n of them stays exact.
std::int64_t modulus(const Case& c) {
  const std::int64_t limit = comm::exact_integer_limit(c.type);
  return std::clamp<std::int64_t>(limit / c.ranks + 1, 1, 16);
}

}  // namespace

std::int64_t pattern_value(const Case& c, int r, std::size_t g) {
  const auto m = modulus(c);
  const auto cycle = static_cast<std::int64_t>(g % static_cast<std::size_t>(m));
  if (!reduces(c.op)) return (r * 13 + static_cast<std::int64_t>(g % 251)) % 251;
  // avg: base (n-1) + cycle plus the deviation 2r-(n-1), which sums to zero over the ranks.
  if (c.redop == ReduceOp::avg) return cycle + 2 * r;
  return (r * 3 + cycle) % m;
}

std::int64_t reduced_value(const Case& c, std::size_t g) {
  std::int64_t acc = pattern_value(c, 0, g);
  for (int r = 1; r < c.ranks; ++r)
    acc = c.redop == ReduceOp::max ? std::max(acc, pattern_value(c, r, g)) : acc + pattern_value(c, r, g);
  return c.redop == ReduceOp::avg ? acc / c.ranks : acc;
}

bool checkable(const Case& c) {
  if (!reduces(c.op)) return true;
  const std::int64_t limit = comm::exact_integer_limit(c.type);
  const std::int64_t n = c.ranks;
  const std::int64_t largest = c.redop == ReduceOp::avg ? (2 * n - 2 + modulus(c) - 1) : modulus(c) - 1;
  // Partial sums of the largest values must stay exact, and the values must vary at all.
  return n * largest <= limit && modulus(c) > 1;
}

std::vector<char> input(const Case& c) {
  std::vector<char> bytes(c.shape.in_elems * comm::size_of(c.type));
  for (std::size_t g = 0; g < c.shape.in_elems; ++g)
    comm::store(bytes.data(), g, c.type, static_cast<double>(pattern_value(c, c.rank, g)));
  return bytes;
}

std::uint64_t count_wrong(const Case& c, const void* out) {
  const CollectiveDef& d = collective(c.op);
  std::uint64_t wrong = 0;
  for (std::size_t j = 0; j < c.shape.out_elems; ++j)
    if (comm::load(out, j, c.type) != static_cast<double>(d.expected(c, j))) ++wrong;
  return wrong;
}

std::vector<char> poison(comm::DType type, std::size_t elements) {
  std::vector<char> bytes(elements * comm::size_of(type));
  const double bad = type == comm::DType::int32 ? 2147483647.0 : std::numeric_limits<double>::quiet_NaN();
  for (std::size_t j = 0; j < elements; ++j) comm::store(bytes.data(), j, type, bad);
  return bytes;
}

}  // namespace sweep::collbench
