// Broadcast: every rank ends with the root's input; each byte crosses each link once.
#include "collbench/collective.h"

namespace sweep::collbench {
namespace {

double bus(double) { return 1; }
std::int64_t expected(const Case& c, std::size_t j) { return pattern_value(c, c.root, j); }
void call(comm::Communicator& comm, const Case& c, void* in, void* out) {
  comm.broadcast(in, out, c.shape.count, c.type, c.root);
}

}  // namespace

const CollectiveDef kBroadcast{comm::Collective::broadcast, false, false, false, false, InPlace::same_buffer,
                               bus, expected, call};

}  // namespace sweep::collbench
