#pragma once
// Finding and killing the leftovers of a job whose controller died. Every job runs with a marker
// variable in its environment (Job.env), which all its descendants inherit; a resumed controller kills
// whatever still carries the marker of an attempt it is about to rerun. A process can also be found by
// its working directory, which the scheduler client uses for a submission's sbatch.
#include <cstddef>
#include <string>

namespace sweep::exec {

/// The environment variable that marks a job's processes: its value is the attempt's run directory.
inline constexpr const char* kJobMarker = "SWEEP_RUN_DIR";

/// Sends SIGKILL to every process of this user whose environment holds kJobMarker=`run_dir`, and
/// waits (up to ~2 s) for them to disappear. Returns how many were killed. Linux (/proc) only.
std::size_t kill_job_leftovers(const std::string& run_dir);

/// How many live processes (zombies excluded) named `program` (their /proc comm, the executed file's
/// name) have `dir` as their working directory. Linux (/proc) only.
std::size_t processes_in(const std::string& dir, const std::string& program);

}  // namespace sweep::exec
