// All-reduce: every rank ends with the reduction of all inputs; a ring moves 2(n-1)/n of the data.
#include "collbench/collective.h"

namespace sweep::collbench {
namespace {

double bus(double n) { return 2 * (n - 1) / n; }
std::int64_t expected(const Case& c, std::size_t j) { return reduced_value(c, j); }
void call(comm::Communicator& comm, const Case& c, void* in, void* out) {
  comm.all_reduce(in, out, c.shape.count, c.type, c.redop);
}

}  // namespace

const CollectiveDef kAllReduce{comm::Collective::allreduce, false, false, false, true, InPlace::same_buffer,
                               bus, expected, call};

}  // namespace sweep::collbench
