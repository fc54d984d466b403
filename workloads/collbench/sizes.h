#pragma once
// Message sizes of a collbench sweep, and the per-collective arithmetic of nccl-tests: how a size maps
// to element counts, and the bus-bandwidth factor. Pure.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "comm/communicator.h"

namespace sweep::collbench {

/// "1024", "64K", "64M", "8G", "1T" (binary multiples, as nccl-tests' -b/-e), optional trailing "B"
/// or "iB" ("64MiB"). nullopt when malformed or when it overflows 64 bits.
std::optional<std::uint64_t> parse_bytes(std::string_view text);
/// "700M", "1.5B", "124000000": a parameter count in decimal multiples (K=1e3, M=1e6, B=G=1e9).
std::optional<std::uint64_t> parse_count(std::string_view text);
/// 1536 -> "1.5 KiB", for messages.
std::string format_bytes(std::uint64_t bytes);

/// How one collective maps a message size S to buffers, after nccl-tests.
struct Shape {
  std::size_t count;      // elements per rank: the `count` column (per-rank block for allgather etc.)
  std::size_t in_elems;   // elements of the input buffer
  std::size_t out_elems;  // elements of the output buffer
  std::uint64_t bytes;    // S: the `size` column, used for algbw = S / t
};

/// The shape for a requested size, rounded down to whole elements (and whole blocks per rank where
/// the count is per rank). A size smaller than one element (block) gives count 0.
Shape shape_for(comm::Collective op, std::uint64_t requested_bytes, comm::DType type, int ranks);

/// busbw = algbw · factor: 2(n-1)/n for all-reduce, (n-1)/n for all-gather, reduce-scatter and
/// all-to-all, 1 for broadcast and send/recv.
double bus_factor(comm::Collective op, int ranks);

/// True for the collectives that take a reduction operation (the redop column).
bool reduces(comm::Collective op);

/// Sizes from min to max: min, min·factor, ... while <= max (max itself is included only when it is
/// on that path). factor must be >= 2 unless min == max. Throws std::invalid_argument otherwise.
std::vector<std::uint64_t> size_steps(std::uint64_t min_bytes, std::uint64_t max_bytes, std::uint64_t factor);

}  // namespace sweep::collbench
