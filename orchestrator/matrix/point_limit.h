#pragma once
// How many points `sweep run` keeps. A campaign holds every point in memory and in its database (about
// 1.4 KB each), so a typo in a matrix (an axis of 1000 values where 10 were meant) must be refused at once,
// not after the login node ran out of memory. `sweep plan` streams points and needs no limit.
#include <cstdint>
#include <optional>
#include <string>

#include "matrix/expand.h"

namespace sweep::matrix {

/// The default of `sweep run --max-points` (docs/experiment-format.md#the-size-of-a-matrix).
inline constexpr std::uint64_t kDefaultMaxPoints = 100'000;

/// The refusal of a matrix that has more than `max_points` points, or nullopt when it may have no more:
/// decided from the axes' sizes alone, at once, when nothing is excluded (the product is the count) or
/// when even the product is within the limit. With exclusions and a larger product only the walk can
/// tell: see too_many_points_seen().
std::optional<std::string> too_many_points(const Expansion& expansion, std::uint64_t max_points);

/// The refusal once the walk of a matrix with exclusions kept more than `max_points` points.
std::string too_many_points_seen(const Expansion& expansion, std::uint64_t max_points);

/// `n` with its digits grouped by commas: 1000000 -> "1,000,000".
std::string grouped(std::uint64_t n);

}  // namespace sweep::matrix
