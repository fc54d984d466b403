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

/// False when the dtype cannot hold this case's reduction exactly.
bool checkable(const Case& c);

/// The input buffer of this rank, as bytes of c.type.
std::vector<char> input(const Case& c);

/// Elements of `out` (this rank's output buffer, c.shape.out_elems elements) that differ from the
/// exact result. For reduce-scatter only the rank's block matters; pass that block (count elements).
std::uint64_t count_wrong(const Case& c, const void* out);

/// The bytes that an output buffer holds before a checked call: NaN for floats, 0x7fffffff for
/// int32, so an element the collective never wrote is counted as wrong.
std::vector<char> poison(comm::DType type, std::size_t elements);

}  // namespace sweep::collbench
