#pragma once
// A test double of the scheduler seam (sched/scheduler.h), named as one: a scripted Slurm. A test
// scripts what each submission answers and what each poll says of each array task; the double keeps
// the jobs in a ScriptedCluster the test owns (it outlives one driver, so a resumed controller finds
// the jobs its killed predecessor submitted) and RUNS each task's array script for real, with bash, in
// the submission's directory, with SLURM_ARRAY_TASK_ID, SLURM_JOB_ID, SLURM_ARRAY_JOB_ID (and
// SLURM_RESTART_COUNT after a requeue) set, so the run directories hold the workload's real output.
// States, pending reasons and directives are Slurm's own tables (slurm/states.h, slurm/directives.h),
// not scripted: the driver sees exactly what it would see from slurm::Scheduler's parsers.
#include <atomic>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sched/scheduler.h"

namespace sweep::testing {

/// What one poll of one array task says (squeue's line for it), and whether the task starts then.
struct Step {
  std::string state;            // Slurm's state name; "" = COMPLETED or FAILED by the last start's exit status
  std::string reason = "None";  // why it is pending
  int restarts = 0;             // times it was requeued so far (a start's SLURM_RESTART_COUNT)
  bool start = false;           // the array script runs now, for real, before the poll answers
  std::optional<int> exit_code; // a finished state's exit code; unset = the last start's exit status
};

Step pending(std::string reason, int restarts = 0);
/// Starts the script now and says RUNNING.
Step started(int restarts = 0);
/// Starts the script now and says how it ended (COMPLETED or FAILED by its exit status), in one poll.
Step ran(int restarts = 0);
/// An ended state (COMPLETED, FAILED, TIMEOUT, NODE_FAIL, ...); "" = by the last start's exit status.
Step ended(std::string state = "", std::optional<int> exit_code = std::nullopt, int restarts = 0);

/// What one call of submit() answers.
enum class SubmitAnswer {
  accept,              // the array is queued and its id comes back
  limit,               // refused for a per-user submit limit (nothing queued)
  refuse,              // refused for good ("Invalid partition", nothing queued)
  transient_lost,      // the controller timed out and nothing was queued
  transient_accepted,  // the controller timed out, but the array WAS queued (its id never came back)
  crash_before,        // the controller is killed before the array reaches the scheduler (throws ControllerKilled)
  crash_after,         // the controller is killed after the array was queued, before its id came back (throws)
};

/// Thrown by submit() for crash_before and crash_after: the controller dies inside sbatch.
struct ControllerKilled : std::runtime_error {
  ControllerKilled() : std::runtime_error("scripted: the controller was killed inside the submit command") {}
};

/// The cluster the double schedules on: the test's script and everything submitted, with counters.
class ScriptedCluster {
 public:
  // --- the script ---
  std::deque<SubmitAnswer> answers;  // one per submit() call, in order; empty = accept
  /// The steps of task `task` of the `submission`-th queued array (0-based); unset or empty = start,
  /// then ended by its exit status. After its last step a task keeps saying that step.
  std::function<std::vector<Step>(std::size_t submission, int task)> plan;
  std::size_t unreachable_polls = 0;  // the next this many array_jobs/own_jobs calls answer nullopt
  bool accounting_enabled = true;     // accounting() answers (sacct), else nullopt
  std::size_t accounting_lag = 0;     // the next this many accounting() calls (of some job) answer without any ended task
  /// What usage() answers while accounting is enabled: the records of the arrays asked about.
  std::vector<sched::JobUsage> usage_records;
  bool completions_enabled = false;   // completions() lists ended tasks (a jobcomp log)
  sched::Limits limits;
  std::optional<std::size_t> submit_limit;  // queued tasks (not ended) past which a submission is refused as `limit`
  /// A guard against a driver that would wait forever: after this many queries, *stop is set.
  std::atomic<bool>* stop = nullptr;
  std::size_t max_queries = 2000;

  // --- what happened ---
  struct Task {
    int id = 0;
    std::vector<Step> steps;
    std::size_t next = 0;
    std::optional<Step> now;  // the step last said (none before the first poll: PENDING)
    int last_exit = 0;        // the exit status of its last start
    int starts = 0;
  };
  struct Array {
    std::string job_id, name, script, cwd;
    sched::EnvPairs env;
    std::vector<Task> tasks;
  };
  std::vector<Array> arrays;                  // queued arrays, in order
  std::vector<std::size_t> queued_at_submit;  // tasks queued and not ended at each submit() call
  std::vector<std::string> cancelled;         // every id cancel() was given
  std::size_t submits = 0, array_queries = 0, name_queries = 0, calls = 0;
  std::size_t usage_calls = 0;  // usage() calls, not in `calls` (which tests of the poll cost count)

  /// A new double on this cluster (the driver owns it; the cluster stays the test's).
  std::unique_ptr<sched::Scheduler> scheduler();

  // The double's behaviour (ScriptedScheduler forwards here).
  sched::SubmitResult submit(const std::string& script, const std::string& cwd, const sched::EnvPairs& env);
  std::optional<std::vector<sched::JobRecord>> array_jobs(const std::string& job_id);
  std::optional<std::vector<sched::JobRecord>> own_jobs(const std::vector<std::string>& names);
  std::optional<std::vector<sched::JobRecord>> accounting(const std::vector<std::string>& job_ids);
  std::optional<std::vector<sched::JobUsage>> usage(const std::vector<std::string>& job_ids);
  std::vector<sched::JobRecord> completions();
  bool cancel(const std::vector<std::string>& job_ids);
  Array* find(const std::string& job_id);
  std::size_t queries() const { return array_queries + name_queries; }

 private:
  void queue(const std::string& script, const std::string& cwd, const sched::EnvPairs& env);
  void advance(Array& a, Task& t);
  void start(const Array& a, Task& t, int restarts);
  bool unreachable_now();
  std::size_t queued_tasks() const;
  std::vector<sched::JobRecord> records(const Array& a, bool ended_only) const;
};

}  // namespace sweep::testing
