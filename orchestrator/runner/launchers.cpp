#include "runner/launchers.h"

#include <array>

#include "util/error.h"

namespace sweep::runner {
namespace {

std::string srun(const spec::Workload& w) { return w.mpi.empty() ? "srun " : "srun --mpi=" + w.mpi + " "; }

// Evaluated once in the job shell before srun: the first node of the allocation as an address that
// every node can reach (its NodeAddr from Slurm; its name when Slurm has no address for it).
constexpr const char* kMasterAddr =
    "MASTER_ADDR=$(first=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1); "
    "addr=$(scontrol -o show node \"$first\" | grep -o \"NodeAddr=[^ ]*\" | cut -d= -f2); "
    "echo \"${addr:-$first}\") MASTER_PORT=$((20000 + SLURM_JOB_ID % 20000)) ";

// Runs as `bash -c SCRIPT torchrun-env CMD ARGS...` inside each srun task. LOCAL_WORLD_SIZE is this
// node's entry of SLURM_STEP_TASKS_PER_NODE ("2(x3),1": 2 tasks on each of 3 nodes, then 1).
constexpr const char* kTorchrunEnv =
    "'export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID "
    "GROUP_RANK=$SLURM_NODEID NODE_RANK=$SLURM_NODEID; "
    "first=0; for group in ${SLURM_STEP_TASKS_PER_NODE//,/ }; do tasks=${group%%(*}; count=1; "
    "case $group in *x*) count=${group#*x}; count=${count%)};; esac; "
    "if [ \"$SLURM_NODEID\" -lt $((first + count)) ]; then export LOCAL_WORLD_SIZE=$tasks; break; fi; "
    "first=$((first + count)); done; exec \"$@\"' torchrun-env ";

struct Launcher {
  std::string_view name;
  std::string (*prefix)(const spec::Workload&);
};

constexpr std::array<Launcher, 4> kLaunchers{{
    {"local", [](const spec::Workload&) { return std::string(); }},
    {"srun", srun},
    {"mpirun", [](const spec::Workload&) { return std::string("mpirun "); }},
    {"torchrun-env", [](const spec::Workload& w) { return kMasterAddr + srun(w) + "bash -c " + kTorchrunEnv; }},
}};

}  // namespace

std::string launch_prefix(const spec::Workload& workload) {
  for (const Launcher& l : kLaunchers)
    if (l.name == workload.launcher) return l.prefix(workload);
  throw Error(ErrorKind::internal, "no launcher named " + workload.launcher);
}

}  // namespace sweep::runner
