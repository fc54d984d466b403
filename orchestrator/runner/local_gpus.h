#pragma once
// The GPUs of a local campaign: each point's `resources.gpus` and the pool they are taken from
// (runner/gpu_slots.h), read from this machine when some point asks for GPUs.
#include <cstddef>
#include <map>
#include <optional>
#include <string>

#include "runner/campaign_plan.h"
#include "runner/gpu_slots.h"

namespace sweep::runner {

struct LocalGpus {
  std::optional<GpuSlots> slots;             // none when no point asks for GPUs: CUDA_VISIBLE_DEVICES is left alone
  std::map<std::string, std::size_t> demand;  // point id -> GPUs per run (absent: 0)
};

/// Reads each point's `gpus` resource and, when any is set, the pool: the CUDA_VISIBLE_DEVICES sweep was
/// started with, else `nvidia-smi -L` (visible_gpus). Throws Error(invalid_experiment), before anything
/// runs, when a point asks for more GPUs per run than the pool holds, naming the point, the count and
/// where the pool came from.
LocalGpus local_gpus(const CampaignPlan& plan);

}  // namespace sweep::runner
