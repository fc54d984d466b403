#pragma once
// The campaign driver for a batch executor (sched/executors.h; Slurm's is slurm/scheduler.h): runs
// become tasks of job arrays submitted through the scheduler seam (sched/scheduler.h), tracked with
// one scheduler query per poll cycle, and ingested when the scheduler says they ended.
//
// Crash contract (on top of run_campaign.h's): a submission is recorded ("submitting", with its
// tasks' attempts) before sbatch is called and marked "submitted" with the job id after. A
// controller killed between the two is reconciled on resume by the job name the campaign gave the
// array (sweep-<label>-s<submission id>): found on the cluster, it is adopted; absent, its attempts
// are recorded as interrupted and submitted again. Nothing is ever submitted twice blindly.
// An unreachable controller (slurmctld) is waited out with back-off; it never fails a run.
#include <atomic>
#include <memory>

#include "runner/campaign_plan.h"
#include "runner/campaign_setup.h"
#include "runner/run_options.h"
#include "sched/scheduler.h"
#include "store/store.h"
#include "util/clock.h"

namespace sweep::runner {

enum class BatchMode {
  run,      // submit, track and ingest until every run has ended (or `stop`)
  detach,   // submit what the queue limit allows, then return
  collect,  // one pass: reconcile, ingest what ended, retry, submit more, return
  cancel,   // cancel everything queued and record those attempts as cancelled
};

/// Drives a batch campaign in `mode` through `scheduler`. Holds the campaign's controller lock while it
/// runs: a second controller of the same campaign gets Error(usage).
RunSummary run_batch_campaign(const RunOptions& options, CampaignPlan plan, Resolved resolved, store::Store& db,
                              const std::atomic<bool>& stop, BatchMode mode, std::unique_ptr<sched::Scheduler> scheduler);
/// The same with `clock` for every time it reads and every wait between polls (tests drive a clock
/// whose waits pass at once: tests/support/manual_clock.h); the one above uses the system clock.
RunSummary run_batch_campaign(const RunOptions& options, CampaignPlan plan, Resolved resolved, store::Store& db,
                              const std::atomic<bool>& stop, BatchMode mode, std::unique_ptr<sched::Scheduler> scheduler,
                              const Clock& clock);

}  // namespace sweep::runner
