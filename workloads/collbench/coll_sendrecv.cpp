// Send/recv: each rank sends to the next and receives from the previous one, around a ring.
#include "collbench/collective.h"

namespace sweep::collbench {
namespace {

double bus(double) { return 1; }
std::int64_t expected(const Case& c, std::size_t j) { return pattern_value(c, (c.rank - 1 + c.ranks) % c.ranks, j); }
void call(comm::Communicator& comm, const Case& c, void* in, void* out) {
  comm.send_recv(in, (c.rank + 1) % c.ranks, out, (c.rank - 1 + c.ranks) % c.ranks, c.shape.count, c.type);
}

}  // namespace

const CollectiveDef kSendRecv{comm::Collective::sendrecv, false, false, false, false, InPlace::none,
                              bus, expected, call};

}  // namespace sweep::collbench
