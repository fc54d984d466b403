#include "collbench/collective.h"

#include <array>
#include <stdexcept>

namespace sweep::collbench {

const CollectiveDef& collective(comm::Collective op) {
  static const std::array<const CollectiveDef*, 6> kTable{&kAllReduce, &kAllGather, &kReduceScatter,
                                                          &kBroadcast, &kAllToAll, &kSendRecv};
  for (const CollectiveDef* d : kTable)
    if (d->op == op) return *d;
  throw std::invalid_argument("collbench has no definition for this collective");
}

}  // namespace sweep::collbench
