#pragma once
// The correctness check: inputs filled with small integers whose collective result is exactly
// predictable in every dtype, and the count of output elements that differ. Pure.
//
// Reductions use values below the dtype's exact-integer limit divided by the rank count, so every
// partial sum is exact (bf16: 256, fp16: 2048). For avg, rank r adds 2r-(n-1) to a base value, so the
// deviations cancel and the mean is the base exactly. A combination that cannot be checked exactly
// (bf16 avg on many ranks) reports checkable() == false, and collbench prints N/A instead of a count.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "collbench/sizes.h"
#include "comm/communicator.h"

namespace sweep::collbench {

struct Case {
  comm::Collective op;
  comm::DType type;
  comm::ReduceOp redop;
  int ranks;
  int rank;
  int root;  // broadcast
  Shape shape;
};

/// The value rank r holds at element g of its input (g counts across all the blocks of the input).
std::int64_t pattern_value(const Case& c, int r, std::size_t g);
/// The reduction over all ranks of their values at element g (c.redop).
std::int64_t reduced_value(const Case& c, std::size_t g);

/// False when the dtype cannot hold this case's reduction exactly.
bool checkable(const Case& c);

/// The input buffer of this rank, as bytes of c.type.
std::vector<char> input(const Case& c);

/// Elements of `out` (this rank's output, c.shape.out_elems elements; for reduce-scatter in place,
/// pass the rank's block of the input) that differ from the exact result (CollectiveDef::expected).
std::uint64_t count_wrong(const Case& c, const void* out);

/// The bytes that an output buffer holds before a checked call: NaN for floats, 0x7fffffff for
/// int32, so an element the collective never wrote is counted as wrong.
std::vector<char> poison(comm::DType type, std::size_t elements);

}  // namespace sweep::collbench
