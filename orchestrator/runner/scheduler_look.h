#pragma once
// What a batch scheduler says now of a campaign's tasks under way, without driving the campaign: for
// `sweep status --watch` on a detached campaign that no controller follows. Nothing is written (the
// database changes when `sweep collect` runs); the answer is in the provenance keys the batch driver
// records (runner/batch_driver.h: "<scheduler>.phase", ".state", ".reason").
#include <optional>
#include <vector>

#include "sched/job.h"
#include "sched/scheduler.h"
#include "store/store.h"

namespace sweep::runner {

/// The provenance values that say what the scheduler says of a task under way: "<scheduler>.phase"
/// (queued or running), ".state" (the scheduler's own name) and ".reason" (why it waits; "" once it
/// runs). Pure; the batch driver records them, `sweep status --watch` shows them.
std::vector<store::AttemptValue> scheduler_state_values(std::string_view scheduler, std::int64_t run_id, int attempt,
                                                        sched::Phase phase, const sched::JobRecord& rec);

struct SchedulerLook {
  std::vector<store::AttemptValue> states;  // of each task the scheduler still lists as queued or running
  std::size_t under_way = 0;                // the campaign's submitted tasks whose attempts the database has running
};

/// Asks `scheduler` about each job array of the campaign with a task under way (one query per array).
/// nullopt when the scheduler does not answer (or is not installed).
std::optional<SchedulerLook> look_at_scheduler(const store::Store& db, const store::CampaignRecord& campaign,
                                               sched::Scheduler& scheduler);

}  // namespace sweep::runner
