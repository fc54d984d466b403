#pragma once
// What Slurm says about a job, read from its three sources: `squeue -t all` (a user's live jobs and
// those ended less than MinJobAge ago; what every poll cycle reads), the jobcomp/filetxt record (one
// permanent line per job), and `sacct -P` (when accounting exists). Pure parsing: no process is
// started here.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sweep::slurm {

struct JobRecord {
  std::string job_id;        // the job's (or array task's) own id
  std::string array_job_id;  // "" when not part of an array
  std::string array_tasks;   // the task id ("3"), or for a pending, unsplit array the range ("3-11%2")
  std::string name;
  std::string comment;
  std::string state;         // JobState without qualifiers: "COMPLETED", "CANCELLED", ...
  std::string reason;        // why it is pending (or "None")
  std::optional<int> exit_code;
  std::optional<int> signal;
  std::string node_list;
  std::string partition;
  std::string start;  // as Slurm prints it, "Unknown"/"None" kept
  std::string end;
  std::optional<double> elapsed_s;
  std::optional<int> restarts;  // times Slurm requeued the job (preemption, `scontrol requeue`, node failure)

  /// The array task id as a number, when this record is one task (not a range, not a plain job).
  std::optional<int> task_id() const;
};

/// Splits one `Key=Value Key=Value` line (jobcomp, scontrol -o) into its fields. Values may contain
/// spaces: a word without `=` continues the previous value.
std::vector<std::pair<std::string, std::string>> key_values(std::string_view line);

/// The fields squeue is asked for (`squeue -h -O <kSqueueFormat>`): each ends in '|'; the reason, the
/// only free text, comes last.
inline constexpr std::string_view kSqueueFormat =
    "JobID:|,ArrayJobID:|,ArrayTaskID:|,Name:|,State:|,exit_code:|,RestartCnt:|,NodeList:|,Partition:|,"
    "StartTime:|,EndTime:|,TimeUsed:|,Reason:|";
/// Every job in `squeue -h -O <kSqueueFormat>` output. squeue prints the exit status as a wait status
/// (768 is exit 3, 9 is signal 9), "N/A" for fields that do not apply.
std::vector<JobRecord> parse_squeue(std::string_view text);
/// Every job in a jobcomp/filetxt file (one job per line).
std::vector<JobRecord> parse_jobcomp(std::string_view text);

/// The columns sacct is asked for, in order, for parse_sacct.
inline constexpr std::string_view kSacctFormat = "JobID,JobIDRaw,JobName,State,ExitCode,NodeList,Start,End,ElapsedRaw,Reason,Partition";
/// Every job in `sacct -n -P -X --format=<kSacctFormat>` output.
std::vector<JobRecord> parse_sacct(std::string_view text);

/// Seconds in a Slurm duration ("MM:SS", "HH:MM:SS", "D-HH:MM:SS"); nullopt when malformed.
std::optional<double> parse_duration(std::string_view text);

/// The task ids in an array range such as "0-11%2", "1,3,5-7" or "4". Empty when malformed.
std::vector<int> expand_task_ids(std::string_view range);

}  // namespace sweep::slurm
