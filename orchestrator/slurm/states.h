#pragma once
// Slurm's job states and pending reasons, as tables: what each means for a run of a campaign. Pure.
#include <string_view>

#include "sched/job.h"

namespace sweep::slurm {

using sched::Phase;
using sched::StateInfo;

/// The row for `state`. A state missing from the table (a newer Slurm's) counts as running: sweep
/// keeps watching the job instead of guessing how it ended.
StateInfo state_info(std::string_view state);

/// Whether a job pending for `reason` can never start without someone changing the cluster or the
/// job (ReqNodeNotAvail, PartitionConfig, BadConstraints, InvalidAccount, ...).
bool hopeless_reason(std::string_view reason);
/// Whether `reason` says the job's dependency can never be satisfied.
bool dependency_never_satisfied(std::string_view reason);

}  // namespace sweep::slurm
