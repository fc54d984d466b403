#include "runner/launchers.h"

#include <array>

#include "util/error.h"

namespace sweep::runner {
namespace {

std::string srun(const spec::Workload& w) { return w.mpi.empty() ? "srun " : "srun --mpi=" + w.mpi + " "; }

// Runs as `bash -c SCRIPT torchrun-env CMD ARGS...` inside each srun task.
constexpr const char* kTorchrunEnv =
    "'export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID; "
    "export MASTER_ADDR=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1); "
    "export MASTER_PORT=$((20000 + SLURM_JOB_ID % 20000)); exec \"$@\"' torchrun-env ";

struct Launcher {
  std::string_view name;
  std::string (*prefix)(const spec::Workload&);
};

constexpr std::array<Launcher, 4> kLaunchers{{
    {"local", [](const spec::Workload&) { return std::string(); }},
    {"srun", srun},
    {"mpirun", [](const spec::Workload&) { return std::string("mpirun "); }},
    {"torchrun-env", [](const spec::Workload& w) { return srun(w) + "bash -c " + kTorchrunEnv; }},
}};

}  // namespace

std::string launch_prefix(const spec::Workload& workload) {
  for (const Launcher& l : kLaunchers)
    if (l.name == workload.launcher) return l.prefix(workload);
  throw Error(ErrorKind::internal, "no launcher named " + workload.launcher);
}

}  // namespace sweep::runner
