#pragma once
// One collective of collbench, as nccl-tests' per-collective files fill one struct: how a message
// size maps to buffers, the bus-bandwidth factor, where an in-place variant reads and writes, the
// exact result the check expects, and the call. One file per collective (coll_<name>.cpp) fills it;
// sizes.cpp, pattern.cpp and measure.cpp read the table and never switch on the collective.
#include <cstddef>
#include <cstdint>

#include "collbench/pattern.h"
#include "comm/communicator.h"

namespace sweep::collbench {

/// Where the in-place variant of a collective reads and writes (nccl-tests' conventions).
enum class InPlace {
  same_buffer,           // input and output are one buffer (all-reduce, broadcast, all-to-all)
  input_in_output,       // the input is this rank's block of the output (all-gather)
  output_in_input,       // the output is this rank's block of the input (reduce-scatter)
  none,                  // no in-place variant (send/recv)
};

struct CollectiveDef {
  comm::Collective op;
  bool per_rank_count;   // the count column is one block per rank: S = count · ranks · element size
  bool input_of_all;     // the input holds every rank's block
  bool output_of_all;    // the output holds every rank's block
  bool reduces;          // takes a reduction operation (the redop column)
  InPlace in_place;
  double (*bus_factor)(double ranks);                        // busbw = algbw · factor
  std::int64_t (*expected)(const Case& c, std::size_t j);    // the exact result at output element j
  void (*call)(comm::Communicator& comm, const Case& c, void* in, void* out);
};

/// The definition of `op`. Precondition: op is not barrier (collbench refuses it).
const CollectiveDef& collective(comm::Collective op);

// The definitions, one per file.
extern const CollectiveDef kAllReduce, kAllGather, kReduceScatter, kBroadcast, kAllToAll, kSendRecv;

}  // namespace sweep::collbench
