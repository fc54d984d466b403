#pragma once
// Launchers: the words put before a workload's command so that it starts on every task of the
// allocation. A launcher contributes only these words; the job-script templates assemble the
// scheduler preamble, the launcher and the workload. Pure.
#include <optional>
#include <string>
#include <string_view>

#include "spec/experiment.h"

namespace sweep::runner {

/// The launcher's words, shell-ready, ending in a space ("" for `local`). Names are validated at load
/// (spec/load_workload.cpp); an unknown one here is Error(internal).
///   srun          srun [--mpi=<mpi>]
///   mpirun        mpirun  (the job script allows it to run as root)
///   torchrun-env  MASTER_ADDR=<addr> MASTER_PORT=<port> srun [--mpi=<mpi>] bash -c '<exports>'
///                 torchrun-env: MASTER_ADDR is the first node of the allocation as Slurm's NodeAddr
///                 (its name when it has none), found once by the job shell; MASTER_PORT is 20000 + job
///                 id mod 20000. Each task exports RANK, WORLD_SIZE, LOCAL_RANK, GROUP_RANK = NODE_RANK
///                 and LOCAL_WORLD_SIZE from SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID, SLURM_NODEID and
///                 SLURM_STEP_TASKS_PER_NODE, then execs the command, which must be a simple command
///                 (program and arguments).
/// `srun_options` (each word followed by a space) go after srun's own options, for srun and
/// torchrun-env: a Pyxis container's (runner/container_launch.h); the other launchers take none.
std::string launch_prefix(const spec::Workload& workload, std::string_view srun_options = {});

/// Why `workload`'s launcher cannot start it on `executor`, or nullopt when it can. srun and
/// torchrun-env start their tasks inside a batch scheduler's allocation, which only a batch executor
/// (sched/executors.h) makes: on the local executor, srun on a login node with SLURM_CONF set quietly
/// becomes a one-task Slurm job of its own per run (a 2x1 point ran with WORLD_SIZE=1), and elsewhere
/// it is not found. The local executor therefore refuses them, whatever the point's task count. Pure.
std::optional<std::string> launcher_refusal(const spec::Workload& workload, std::string_view executor);

}  // namespace sweep::runner
