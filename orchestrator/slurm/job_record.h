#pragma once
// What Slurm says about a job, read from its three sources: `squeue -t all` (a user's live jobs and
// those ended less than MinJobAge ago; what every poll cycle reads), the jobcomp/filetxt record (one
// permanent line per job), and `sacct -P` (when accounting exists). Pure parsing: no process is
// started here.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sched/job.h"

namespace sweep::slurm {

/// Slurm's records are the scheduler seam's (sched/job.h).
using JobRecord = sched::JobRecord;

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

using sched::expand_task_ids;

}  // namespace sweep::slurm
