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
///   torchrun-env  srun [--mpi=<mpi>] bash -c '<exports>' torchrun-env, exporting RANK, WORLD_SIZE,
///                 LOCAL_RANK from SLURM_PROCID/NTASKS/LOCALID, MASTER_ADDR as the first host of the
///                 node list and MASTER_PORT as 20000 + job id mod 20000; the command must then be a
///                 simple command (program and arguments), which the exports exec.
std::string launch_prefix(const spec::Workload& workload);

}  // namespace sweep::runner
