#pragma once
// Ring reduce-scatter and all-gather over gloo's transport (internal to comm/). The ring moves
// blocks of a buffer: block b of a `count`-element buffer on n ranks is elements
// [count·b/n, count·(b+1)/n), so counts need not divide by n.
#include <cstddef>
#include <vector>

#include <gloo/context.h>

#include "comm/dtype.h"

namespace sweep::comm::detail {

struct Partition {
  std::size_t count;
  int ranks;
  std::size_t begin(int block) const { return count * static_cast<std::size_t>(block) / static_cast<std::size_t>(ranks); }
  std::size_t size(int block) const { return begin(block + 1) - begin(block); }
};

/// Reduces block rank() of `in` over all ranks into `result`. Blocks reduced on the way are kept in
/// `acc` (same layout as in; may be `in` itself). Received segments pass through `scratch`, and each
/// segment's reduction overlaps the transfer of the next one.
void ring_reduce_scatter(gloo::Context& context, const void* in, void* acc, void* result, const Partition& blocks,
                         DType type, ReduceOp op, std::vector<char>& scratch);

/// On entry block rank() of `out` holds this rank's data; on return every block holds its rank's.
void ring_all_gather(gloo::Context& context, void* out, const Partition& blocks, std::size_t element_size);

}  // namespace sweep::comm::detail
