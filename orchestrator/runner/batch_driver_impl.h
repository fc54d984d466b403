#pragma once
// Private to runner/batch_*.cpp: the batch campaign driver. batch_driver.cpp holds the loop,
// reconciliation and submission; batch_tracking.cpp turns scheduler records into results.
#include <atomic>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "parse/extract.h"
#include "runner/campaign_plan.h"
#include "runner/controller_lock.h"
#include "runner/escalation.h"
#include "runner/campaign_setup.h"
#include "runner/poll_backoff.h"
#include "runner/progress.h"
#include "runner/batch_driver.h"
#include "sched/scheduler.h"
#include "store/store.h"
#include "util/clock.h"

namespace sweep::runner {

/// One array task being watched: an attempt of a run, submitted and not yet ended.
struct TrackedTask {
  std::int64_t run_id = 0;
  int attempt = 0;
  std::string run_dir;
  std::string array_job_id;
  int task = 0;
  std::int64_t submission_id = 0;
  double queued_since = 0;  // monotonic seconds when first seen pending for a hopeless reason
  int unseen_polls = 0;     // consecutive polls of its array in which the scheduler did not list it
  int restarts = 0;         // times the scheduler requeued it, as last seen (accounting may not say)
  bool started = false;     // the scheduler said it runs (last seen; false again after a requeue)
  std::string recorded{};   // the phase, state and reason last recorded as its provenance (note_state)
  int usage_waits = 0;      // cycles it ended while accounting did not yet have its end (finish_ended)
};

/// A task that left the scheduler's list or ended, with what the scheduler last said of it (if anything).
struct EndedTask {
  TrackedTask task;
  std::optional<sched::JobRecord> live;
};

class BatchDriver {
 public:
  BatchDriver(const RunOptions& options, CampaignPlan plan, Resolved resolved, store::Store& db,
              const std::atomic<bool>& stop, std::unique_ptr<sched::Scheduler> scheduler, const Clock& clock);
  ~BatchDriver();
  RunSummary run(BatchMode mode);

 private:
  // batch_driver.cpp
  void reconcile(bool rerun_failed);
  void settle_submission(store::SubmissionRecord& sub, const std::vector<sched::JobRecord>& live);
  void abandon_submission(const store::SubmissionRecord& sub, const std::string& why);
  void track(const store::SubmissionRecord& sub);
  std::size_t submit_more();
  std::size_t queue_room();
  AttemptResources resources_for(std::int64_t run_id, const std::string& point_id, int attempt) const;
  /// The directives of attempt `attempt` of a run (its escalated resources, in the scheduler's terms).
  std::vector<std::string> directives_for(std::int64_t run_id, const std::string& point_id, int attempt) const;
  /// A provenance key of this scheduler's: "slurm.state".
  std::string key(std::string_view name) const;
  void submit_group(const std::vector<store::RunRecord>& runs, const std::string& options_text);
  void settle_submit(store::SubmissionRecord sub, const sched::SubmitResult& result);
  std::string write_array_script(const store::SubmissionRecord& sub, const std::vector<store::NewAttempt>& attempts,
                                 const std::string& options_text) const;
  std::string job_name(std::int64_t submission_id) const;
  void cancel_all();
  void sleep_interruptibly(double seconds) const;
  double now() const;
  void show_progress(bool force);

  // batch_tracking.cpp
  bool poll();
  std::optional<std::vector<sched::JobRecord>> ask_scheduler(std::optional<std::string>& array);
  void poll_every_array();
  std::vector<std::string> watched_names() const;
  std::string next_array();
  bool examine(TrackedTask& t, const sched::JobRecord* rec, std::vector<EndedTask>& ended,
               std::vector<std::string>& cancel);
  void finish_ended(std::vector<EndedTask>& ended);
  bool ended_in(const std::vector<sched::JobRecord>& accounting, const TrackedTask& t) const;
  void note_state(TrackedTask& t, sched::Phase phase, const sched::JobRecord& rec);
  void finish(const TrackedTask& t, const sched::JobRecord& rec, const sched::JobUsage* usage = nullptr);
  void finish_failed(const TrackedTask& t, std::string_view cls, const std::string& reason);
  store::KeyValues options_provenance(const TrackedTask& t) const;
  void after_failure(std::int64_t run_id, int attempt, const store::AttemptResult& result);
  std::optional<sched::JobRecord> final_record(const TrackedTask& t, const std::optional<sched::JobRecord>& live,
                                               const std::vector<sched::JobRecord>& accounting,
                                               std::optional<std::vector<sched::JobRecord>>& completions);

  const RunOptions& options_;
  CampaignPlan plan_;
  Resolved resolved_;
  store::Store& db_;
  const std::atomic<bool>& stop_;
  parse::Extractor extractor_;
  std::unique_ptr<sched::Scheduler> scheduler_;
  PollBackoff backoff_;
  const Clock& clock_;  // every time read and every wait (a test's clock advances at once)
  store::CampaignRecord campaign_;
  std::optional<ControllerLock> lock_;  // held from open_campaign on

  std::deque<store::RunRecord> queue_;  // runs to submit
  std::map<std::pair<std::string, int>, TrackedTask> tracked_;  // by (array job id, task id)
  std::vector<store::SubmissionRecord> unconfirmed_;  // the submit failed transiently: did it get through?
  std::size_t submitted_ = 0;         // attempts submitted by this invocation
  std::size_t polls_ = 0;             // poll cycles run by this invocation
  std::size_t finished_here_ = 0;     // attempts ended in this invocation (the ETA's rate)
  Progress progress_;
  std::string last_polled_;           // the array the last poll asked about
  bool wait_for_accounting_ = false;  // an ended task waits (a cycle or two) for accounting's end record: run mode
  std::vector<store::AttemptValue> noted_;  // scheduler states to record at the end of this poll (note_state)
  bool reported_unreachable_ = false;
  bool reported_limit_ = false;
  std::optional<std::size_t> refused_at_;  // tasks queued when sbatch last refused for a submit limit
  double refused_time_ = 0;                // ... and when (now())
  std::size_t cancelled_arrays_ = 0;       // cancel_all: the arrays and tasks it cancelled
  std::size_t cancelled_tasks_ = 0;
  std::size_t cancelled_unsubmitted_ = 0;  // ... and the runs it cancelled before they were submitted
};

}  // namespace sweep::runner
