#include "runner/launchers.h"

#include <fmt/core.h>

#include <array>

#include "sched/executors.h"
#include "util/error.h"

namespace sweep::runner {
namespace {

std::string srun(const spec::Workload& w, std::string_view options) {
  return (w.mpi.empty() ? "srun " : "srun --mpi=" + w.mpi + " ") + std::string(options);
}

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
  std::string (*prefix)(const spec::Workload&, std::string_view srun_options);
  bool needs_allocation;  // starts its tasks in a batch scheduler's allocation (only a batch executor makes one)
};

constexpr std::array<Launcher, 4> kLaunchers{{
    {"local", [](const spec::Workload&, std::string_view) { return std::string(); }, false},
    {"srun", srun, true},
    {"mpirun", [](const spec::Workload&, std::string_view) { return std::string("mpirun "); }, false},
    {"torchrun-env",
     [](const spec::Workload& w, std::string_view options) { return kMasterAddr + srun(w, options) + "bash -c " + kTorchrunEnv; },
     true},
}};

const Launcher& launcher(const std::string& name) {
  for (const Launcher& l : kLaunchers)
    if (l.name == name) return l;
  throw Error(ErrorKind::internal, "no launcher named " + name);
}

}  // namespace

std::string launch_prefix(const spec::Workload& workload, std::string_view srun_options) {
  return launcher(workload.launcher).prefix(workload, srun_options);
}

std::optional<std::string> launcher_refusal(const spec::Workload& workload, std::string_view executor) {
  if (!launcher(workload.launcher).needs_allocation || sched::is_batch(executor)) return std::nullopt;
  return fmt::format("launcher {} starts the workload's tasks inside a Slurm allocation, which the {} executor "
                     "does not make (on a login node each run would quietly become a 1-task Slurm job of its own, "
                     "whatever its ntasks): use --executor slurm, or launcher mpirun (or local) to run here",
                     workload.launcher, executor);
}

}  // namespace sweep::runner
