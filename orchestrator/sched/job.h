#pragma once
// What a batch scheduler says about a campaign's jobs, in terms every scheduler shares: a job's
// record, the phase of its state and the failure class it ends with, a submission's answer, the
// limits on what a user may queue. The scheduler's module reads its own output into these
// (slurm/job_record.h); the batch driver (runner/batch_driver.h) only ever sees these.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sweep::sched {

struct JobRecord {
  std::string job_id;        // the job's (or array task's) own id
  std::string array_job_id;  // "" when not part of an array
  std::string array_tasks;   // the task id ("3"), or for a pending, unsplit array the range ("3-11%2")
  std::string name;
  std::string state;         // the scheduler's state name, without qualifiers: "COMPLETED", "CANCELLED", ...
  std::string reason;        // why it is pending (or "None")
  std::optional<int> exit_code;
  std::optional<int> signal;
  std::string node_list;
  std::string partition;
  std::string start;  // as the scheduler prints it
  std::string end;
  std::optional<double> elapsed_s;
  std::optional<int> restarts;  // times the scheduler requeued the job (preemption, an administrator, a node failure)

  /// The array task id as a number, when this record is one task (not a range, not a plain job).
  std::optional<int> task_id() const;
};

enum class Phase {
  queued,    // waiting to start
  running,   // started and not yet ended
  finished,  // ended; the record's exit code and state tell how
};

struct StateInfo {
  std::string_view state;          // the scheduler's state name
  Phase phase;
  std::string_view failure_class;  // for finished states: "" = judged by exit code and metrics;
                                   // otherwise the class (util/failure_classes.h) it fails with
};

struct SubmitResult {
  std::string job_id;     // set on success
  std::string error;      // the submit command's message on failure
  bool transient = false; // the failure may pass (controller unreachable, timeout)
  bool limit = false;     // refused for a per-user submit limit: not the runs' fault, wait for room
  bool ok() const { return !job_id.empty(); }
};

/// What the cluster lets one user queue.
struct Limits {
  std::size_t max_array_tasks = 1001;          // tasks per array (Slurm: MaxArraySize)
  std::size_t max_job_count = 10000;           // every job the controller holds, all users (Slurm: MaxJobCount)
  std::optional<std::size_t> max_submit_jobs;  // per user, counted per array task; none = no limit
  bool from_cluster = false;  // read from the cluster (Slurm: scontrol show config); false: the defaults above
};

/// The task ids in an array range such as "0-11%2", "1,3,5-7" or "4" (JobRecord::array_tasks).
/// Empty when malformed, or when it holds more than 1,000,001 ids (no campaign of ours queues that many).
std::vector<int> expand_task_ids(std::string_view range);

/// `records` by (array job id, task id). A pending array not split yet is one record whose task field
/// is a range: every task in it maps to that record, unless the task has a record of its own. Records
/// of no array are left out. The pointers point into `records`.
std::map<std::pair<std::string, int>, const JobRecord*> index_by_task(const std::vector<JobRecord>& records);

/// A positive decimal count, or nullopt ("", "N/A", "UNLIMITED", garbage).
std::optional<std::size_t> parse_count(std::string_view text);

}  // namespace sweep::sched
