#pragma once
// The Slurm commands sweep runs: sbatch, scontrol, sacct and scancel, each through exec::capture with
// a timeout. The thin shell of slurm/: it starts processes and hands their output to job_record.h.
// Contract: no call throws for a failing command; an unreachable controller is reported as
// `transient` so the caller backs off and tries again, never as a failed job.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "sched/job.h"
#include "sched/scheduler.h"
#include "slurm/job_record.h"
#include "slurm/usage.h"

namespace sweep::slurm {

using sched::Limits;
using sched::SubmitResult;

/// The settings of `scontrol show config` that sweep reads ("Key = Value" lines): accounting, the
/// jobcomp file, MaxArraySize and MaxJobCount. Pure.
struct ClusterConfig {
  bool accounting = false;
  std::string jobcomp_file;  // "" unless JobCompType=jobcomp/filetxt
  Limits limits;
};
ClusterConfig parse_config(std::string_view text);
/// The smallest MaxSubmitJobs of `sacctmgr -n -P show assoc ... format=MaxSubmit` lines; none when unset.
std::optional<std::size_t> parse_max_submit(std::string_view text);

class Client {
 public:
  explicit Client(std::chrono::milliseconds timeout = std::chrono::seconds(30));

  /// Whether the Slurm commands are in PATH.
  static bool installed();

  /// `sbatch --parsable <script>` in `cwd`, with `env` added to its environment: sbatch's default
  /// (--export=ALL) hands that environment to the job, so the values never enter the script. A refusal
  /// for a per-user submit limit (association or QOS MaxSubmitJobs) is marked `limit`.
  SubmitResult submit(const std::string& script, const std::string& cwd, const sched::EnvPairs& env = {});
  /// Whether an sbatch still runs in `cwd`: one started by a controller that was killed meanwhile may
  /// yet reach slurmctld. Asks /proc, not the scheduler.
  static bool submitting_in(const std::string& cwd);
  /// Every task of one job array (or one job), live or ended less than MinJobAge ago
  /// (`squeue -h -t all -j <id>`, one call). slurmctld looks one job id up in its hash table, so the
  /// cost does not grow with the cluster's queue. Empty when slurmctld no longer knows the id; nullopt
  /// when it cannot be reached.
  std::optional<std::vector<JobRecord>> array_jobs(const std::string& job_id);
  /// This user's jobs with one of these names, live or ended less than MinJobAge ago
  /// (`squeue -h -t all -u <user> -n <names>`, one call): only this user's jobs are sent, but
  /// slurmctld walks its whole job list for them (measured: bench/slurm_poll_busy), so this is for
  /// finding a submission whose job id is unknown, not for polling. nullopt when it cannot be reached.
  std::optional<std::vector<JobRecord>> own_jobs(const std::vector<std::string>& names);
  /// `sacct` records of these jobs (array ids give all their tasks), one call; nullopt without
  /// accounting or when it fails.
  std::optional<std::vector<JobRecord>> accounting(const std::vector<std::string>& job_ids);
  /// `sacct` usage figures of these jobs' allocations and steps (slurm/usage.h), one call; nullopt
  /// without accounting or when it fails or times out.
  std::optional<std::vector<sched::JobUsage>> usage(const std::vector<std::string>& job_ids);
  /// `sbatch --test-only <directives> --wrap true`: when slurmctld expects such a job to start
  /// (slurm/expected_start.h: "2026-11-27T12:16:24 on n1 in partition debug", or its refusal "refused:
  /// ..."); "" when sbatch cannot be started or does not answer in time. Submits nothing.
  std::string expected_start(const std::vector<std::string>& directives);
  /// Records from the jobcomp/filetxt file when the cluster writes one; empty otherwise.
  std::vector<JobRecord> completions();
  /// The cluster's limits on what one campaign may queue (read once; defaults when slurmctld cannot be asked).
  Limits limits();
  /// `scancel` of these job ids (array ids cancel all their tasks; "123_4" one task).
  bool cancel(const std::vector<std::string>& job_ids);

  /// Scheduler commands run so far, and of them the job queries (array_jobs, own_jobs; benchmarks and
  /// tests count them).
  std::size_t calls() const { return calls_; }
  std::size_t queries() const { return queries_; }

 private:
  /// The cluster's settings, read once from `scontrol show config`.
  const ClusterConfig* config();

  std::chrono::milliseconds timeout_;
  std::optional<ClusterConfig> config_;
  std::optional<Limits> limits_;
  std::size_t calls_ = 0;
  std::size_t queries_ = 0;
};

/// The name of the user this process runs as (its uid as text when it has no passwd entry).
std::string current_user();

/// Whether a failed command's message says the controller was unreachable or busy (worth retrying).
bool transient_error(std::string_view message);

}  // namespace sweep::slurm
