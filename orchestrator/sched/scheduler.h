#pragma once
// The scheduler seam: everything the batch driver (runner/batch_driver.h) needs of a batch scheduler.
// Slurm's implementation is slurm/scheduler.h; a second scheduler is one new module implementing this
// and one row in runner/executors.cpp. Contract of every query: it never throws for a failing command;
// nullopt (or false) means the scheduler could not be asked now, and the driver backs off and asks
// again, never failing a run for it.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sched/job.h"
#include "sched/resources.h"
#include "sched/usage.h"

namespace sweep::sched {

/// Environment variables (name, value) added to what a command inherits.
using EnvPairs = std::vector<std::pair<std::string, std::string>>;

class Scheduler {
 public:
  virtual ~Scheduler() = default;

  /// The executor name ("slurm"); also the prefix of the provenance keys of its attempts ("slurm.state").
  virtual std::string_view name() const = 0;
  /// How its controller and its submit command are called in messages ("slurmctld", "sbatch").
  virtual std::string_view controller() const = 0;
  virtual std::string_view submit_command() const = 0;
  /// Whether its commands can be started here; `install_hint` says what to do when they cannot.
  virtual bool installed() const = 0;
  virtual std::string install_hint() const = 0;

  /// The job-script directives (option words, e.g. "--nodes=2") for a point's effective resources
  /// (sched::effective_resources), in order.
  virtual std::vector<std::string> directives(const std::vector<Resource>& effective) const = 0;
  /// The line prefix of a directive in a job script ("#SBATCH").
  virtual std::string_view directive_prefix() const = 0;

  /// Submits the array script `script` from `cwd`, with `env` added to the environment the submit
  /// command passes on to the jobs (the campaign's secrets, never written into the script).
  virtual SubmitResult submit(const std::string& script, const std::string& cwd, const EnvPairs& env) = 0;
  /// Whether a submit command of an earlier controller still runs in `cwd` (it may yet reach the
  /// scheduler, so its submission is not settled).
  virtual bool submitting_in(const std::string& cwd) const = 0;
  /// Every task of one array (or one job) by its id: the one query of a poll cycle, whose cost must
  /// not grow with other users' jobs. Empty when the scheduler no longer knows the id.
  virtual std::optional<std::vector<JobRecord>> array_jobs(const std::string& job_id) = 0;
  /// This user's jobs with one of these names: finds a submission whose id never came back.
  virtual std::optional<std::vector<JobRecord>> own_jobs(const std::vector<std::string>& names) = 0;
  /// Final records of these jobs from the accounting database; nullopt without accounting.
  virtual std::optional<std::vector<JobRecord>> accounting(const std::vector<std::string>& job_ids) = 0;
  /// What these ended jobs used and were given, from the accounting database, one call (array ids give
  /// all their tasks); nullopt without accounting or when it could not be asked. Optional: a scheduler
  /// without usage figures keeps this default.
  virtual std::optional<std::vector<JobUsage>> usage(const std::vector<std::string>& /*job_ids*/) { return std::nullopt; }
  /// When a job of these directives would start, in the scheduler's words (Slurm: `sbatch --test-only`,
  /// with a timeout; docs/forecasts.md); "" when it does not say. Optional: the default says nothing.
  virtual std::string expected_start(const std::vector<std::string>& /*directives*/) { return ""; }
  /// Final records from a job-completion log, when the cluster keeps one; empty otherwise.
  virtual std::vector<JobRecord> completions() = 0;
  /// Cancels these jobs (array ids cancel all their tasks; "123_4" one task).
  virtual bool cancel(const std::vector<std::string>& job_ids) = 0;
  /// What the cluster lets this user queue (read once).
  virtual Limits limits() = 0;

  /// The meaning of a state name; a name it does not know counts as running (keep watching).
  virtual StateInfo state_info(std::string_view state) const = 0;
  /// Whether a job pending for `reason` can never start without someone changing the cluster or the job.
  virtual bool hopeless_reason(std::string_view reason) const = 0;
  /// Whether `reason` says the job's dependency can never be satisfied.
  virtual bool dependency_never_satisfied(std::string_view reason) const = 0;

  /// Scheduler commands run so far, and of them the job queries (benchmarks and tests count them).
  virtual std::size_t calls() const = 0;
  virtual std::size_t queries() const = 0;
};

}  // namespace sweep::sched
