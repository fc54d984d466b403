// Reduce-scatter: rank r ends with block r of the reduction of all inputs; the count is one block.
#include "collbench/collective.h"

namespace sweep::collbench {
namespace {

double bus(double n) { return (n - 1) / n; }
std::int64_t expected(const Case& c, std::size_t j) {
  return reduced_value(c, static_cast<std::size_t>(c.rank) * c.shape.count + j);
}
void call(comm::Communicator& comm, const Case& c, void* in, void* out) {
  comm.reduce_scatter(in, out, c.shape.count, c.type, c.redop);
}

}  // namespace

const CollectiveDef kReduceScatter{comm::Collective::reducescatter, true, true, false, true, InPlace::output_in_input,
                                   bus, expected, call};

}  // namespace sweep::collbench
