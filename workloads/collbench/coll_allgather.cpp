// All-gather: every rank ends with every rank's block; the count is one block.
#include "collbench/collective.h"

#include <algorithm>

namespace sweep::collbench {
namespace {

double bus(double n) { return (n - 1) / n; }
std::int64_t expected(const Case& c, std::size_t j) {
  const std::size_t count = std::max<std::size_t>(c.shape.count, 1);
  return pattern_value(c, static_cast<int>(j / count), j % count);
}
void call(comm::Communicator& comm, const Case& c, void* in, void* out) { comm.all_gather(in, out, c.shape.count, c.type); }

}  // namespace

const CollectiveDef kAllGather{comm::Collective::allgather, true, false, true, false, InPlace::input_in_output,
                               bus, expected, call};

}  // namespace sweep::collbench
