#pragma once
// What one run of a point occupies, read from its rendered resources (sched/resources.h): nodes, GPUs
// per run and its time limit (docs/forecasts.md). Pure.
#include <optional>
#include <vector>

#include "sched/resources.h"

namespace sweep::forecast {

struct PointShape {
  int nodes = 1;
  int gpus = 0;                       // per run
  int ranks = 1;                      // `ntasks`, else nodes x `ntasks-per-node` (the model's ranks)
  std::optional<double> time_limit_s; // `time`; none when absent or UNLIMITED
};

/// nodes: `nodes` (1 when absent); GPUs per run: `gpus` (the local executor's, and a batch run's
/// total), else `gpus-per-node` x nodes, else `gres` gpu[:type]:N x nodes, else `gpus-per-task` x
/// `ntasks`, else 0; a typed count ("a100:4") counts its number.
PointShape point_shape(const std::vector<sched::Resource>& resources);

}  // namespace sweep::forecast
