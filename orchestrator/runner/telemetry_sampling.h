#pragma once
// The job-script text that runs the telemetry sampler (sweep-telemetry, docs/telemetry.md) beside a
// run's workload on every node of the run. Pure.
//
// Contract of the text (job script format 1), inserted as {{{telemetry_start}}} right before {{{command}}}
// and {{{telemetry_end}}} right after it (before {{{nic_end}}}):
//   - telemetry_start starts the sampler and returns once it has written its first sample; it writes
//     ./telemetry.<node> (<node>: $SLURMD_NODENAME, else `uname -n`, as the sampler's `node` record),
//     the only files of that name pattern the job script makes. It never fails the run: a sampler that is missing or does not start leaves
//     ./telemetry_failed (kTelemetryFailedFile: one line, why) and the workload runs without telemetry.
//     Before the sampler, it writes ./telemetry_nodes (kTelemetryNodesFile): the nodes whose files to expect.
//   - On the local node (the local executor, and a one-node Slurm job): `sweep-telemetry --daemon` with
//     `--root $$` (the job script's descendants) and `--marker SWEEP_RUN_DIR=<run directory>` (unique on
//     a node, unlike the run id, which another campaign's database repeats); stopped by
//     `sweep-telemetry stop PID`, which waits until the sampler has written `end` and is gone.
//   - A Slurm job with more than one node ($SLURM_JOB_NUM_NODES > 1): one background step
//     `srun --overlap --job-name=sweep-telemetry --ntasks-per-node=1` running the sampler in the
//     foreground on every node (the marker finds the workload's tasks there; srun passes the job's
//     environment), started detached from the script's own jobs (a `wait` in the command does not wait
//     for it) and waited for until every node's file exists (at most 30 s); its srun's stderr goes to
//     ./telemetry_step_errors. Stopped by `scancel --signal=TERM <step>` (the step's tasks get SIGTERM
//     and write `end`; a SIGTERM to srun itself would kill them: "forcing job termination"), the srun
//     waited for at most 10 s, then killed.
//   - The templates' EXIT trap calls sweep_telemetry_stop (a no-op once stopped), so a script ended by
//     SIGTERM (a local time limit, scancel) stops its sampler, whose file then ends with `end`; a
//     SIGKILLed script's sampler ends by itself once its --root process is gone (sweep-telemetry's own).
//   - telemetry_end leaves $? as the workload's exit status, so {{{nic_end}}} and the EXIT trap see it.
//   - Both are empty when telemetry is off.
#include <string>

#include "spec/experiment.h"

namespace sweep::runner {

struct TelemetrySampling {
  std::string start;  // {{{telemetry_start}}}
  std::string end;    // {{{telemetry_end}}}
};

/// The text for `executor` ("local", "slurm"; another executor gets the local text) with `program`, the
/// sampler's path, and the setting's interval and sources. Both empty when `telemetry.enabled` is false.
TelemetrySampling telemetry_sampling(const std::string& executor, const spec::Telemetry& telemetry,
                                     const std::string& program);

/// The file a run directory holds when its sampler did not start: one line saying why.
inline constexpr const char* kTelemetryFailedFile = "telemetry_failed";

/// The run's nodes, one name a line, as their telemetry files are named (telemetry.<node>): written by
/// telemetry_start before the sampler starts; absent when the job script could not tell (scontrol
/// failing in a multi-node Slurm job), or from a job script older than it. Ingest reads only these
/// nodes' files (runner/telemetry_ingest.h).
inline constexpr const char* kTelemetryNodesFile = "telemetry_nodes";

}  // namespace sweep::runner
