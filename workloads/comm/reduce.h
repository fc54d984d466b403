#pragma once
// Element-wise reduction kernels for the CPU backends (gloo rings, the MPI user-defined op for 16-bit
// floats). Pure.
#include <cstddef>

#include "comm/dtype.h"

namespace sweep::comm {

/// dst[i] = a[i] (op) b[i] for i < count; dst may be a or b, other overlaps are not allowed.
/// `avg` combines as `sum`; divide() divides once at the end. fp16 and bf16 are widened to float,
/// combined, and rounded back to nearest even.
void combine(void* dst, const void* a, const void* b, std::size_t count, DType type, ReduceOp op);

/// acc[i] = acc[i] (op) in[i] for i < count. `avg` accumulates as `sum`; divide() divides once at
/// the end. fp16 and bf16 are widened to float, combined, and rounded back to nearest even.
void reduce_into(void* acc, const void* in, std::size_t count, DType type, ReduceOp op);

/// data[i] = data[i] / divisor, rounded to `type` (integer division truncates towards zero).
void divide(void* data, std::size_t count, DType type, int divisor);

}  // namespace sweep::comm
