#pragma once
// Launchers: the words put before a workload's command so that it starts on every task of the
// allocation. A launcher contributes only these words; the job-script templates assemble the
// scheduler preamble, the launcher and the workload. Pure.
#include <string>

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
std::string launch_prefix(const spec::Workload& workload);

}  // namespace sweep::runner
