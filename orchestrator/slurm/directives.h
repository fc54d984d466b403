#pragma once
// The `#SBATCH` option words for a point's effective resources (sched/resources.h). Pure.
#include <string>
#include <vector>

#include "sched/resources.h"

namespace sweep::slurm {

/// "--nodes=2", "--exclusive", "--no-requeue", an `extra` item as written, ... in the resources' order.
std::vector<std::string> sbatch_options(const std::vector<sched::Resource>& effective);

}  // namespace sweep::slurm
