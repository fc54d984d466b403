#pragma once
// The notation of the resources whose values sbatch reads as quantities: `time` (spec/time_limit.h),
// `mem` and `mem-per-cpu` (a size in MiB, or with a unit K, M, G or T; 0 asks for all of a node's
// memory). Checked on each point's rendered values by runner::CampaignPlan, so that `sweep plan`,
// `sweep run` and its dry run refuse a templated value that only sbatch would have refused. Pure.
#include <string>

#include "sched/resources.h"

namespace sweep::spec {

/// The error message for `r` (rendered) when it is a resource with a notation and its value is not
/// in it (`"resources.time" must be a time limit (...), got "abc"`); "" otherwise.
std::string resource_notation_error(const sched::Resource& r);

}  // namespace sweep::spec
