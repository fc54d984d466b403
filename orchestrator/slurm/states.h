#pragma once
// Slurm's job states and pending reasons, as tables: what each means for a run of a campaign. Pure.
#include <string_view>

namespace sweep::slurm {

enum class Phase {
  queued,    // waiting to start (PENDING, REQUEUED, ...)
  running,   // started and not yet ended
  finished,  // ended; the record's exit code and state tell how
};

struct StateInfo {
  std::string_view state;          // Slurm's JobState
  Phase phase;
  std::string_view failure_class;  // for finished states: "" = judged by exit code and metrics;
                                   // otherwise the class (spec/failure_classes.h) it fails with
};

/// The row for `state`. A state missing from the table (a newer Slurm's) counts as running: sweep
/// keeps watching the job instead of guessing how it ended.
StateInfo state_info(std::string_view state);

/// Whether a job pending for `reason` can never start without someone changing the cluster or the
/// job (ReqNodeNotAvail, PartitionConfig, BadConstraints, InvalidAccount, ...).
bool hopeless_reason(std::string_view reason);
/// Whether `reason` says the job's dependency can never be satisfied.
bool dependency_never_satisfied(std::string_view reason);

}  // namespace sweep::slurm
