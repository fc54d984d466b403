#pragma once
// The job-script text that samples the network-card counters of a run's nodes at the start and the end
// of its workload (runner/nic_counters.h has the snapshot format). Pure.
//
// Contract of the text (job script format 1), inserted as {{{nic_start}}} right before {{{command}}}
// and {{{nic_end}}} right after it:
//   - nic_start defines sweep_nic_sample and sweep_nic and writes ./nic.start.<node>; nic_end writes
//     ./nic.end.<node> and leaves $? as the workload's exit status, so the EXIT trap records it.
//   - On the local node the sample uses shell builtins only (`read` from /sys, globs, printf): it starts
//     no process. <node> is $SLURMD_NODENAME, else $HOSTNAME.
//   - Under the slurm executor, a job with more than one node ($SLURM_JOB_NUM_NODES > 1) samples every
//     node with one `srun --ntasks-per-node=1` step per moment instead.
//   - A killed workload leaves no end snapshot, and its run no network metrics.
//   - Both are empty unless the experiment asks for counters (`network`, opt-in).
#include <string>
#include <vector>

#include "spec/experiment.h"

namespace sweep::runner {

struct NicSampling {
  std::string start;  // {{{nic_start}}}
  std::string end;    // {{{nic_end}}}
};

/// The text for `executor` ("local", "slurm"); `interfaces` are the experiment's chosen names (empty:
/// the default rule), recorded in each snapshot. Both fields empty when `enabled` is false.
NicSampling nic_sampling(const std::string& executor, bool enabled, const std::vector<std::string>& interfaces);

/// Whether the runs of an experiment with this `network` sample their counters: only when the experiment
/// gives `network` (opt-in) and leaves `counters` on. Ingest reads snapshots only then.
bool nic_counters_on(const spec::Network& network);

/// Prefix of the snapshot files in a run directory: nic.<moment>.<node>.
inline constexpr const char* kNicSnapshotPrefix = "nic.";

}  // namespace sweep::runner
