#pragma once
// Facts recorded with every campaign and run: where it ran and from what code.
#include <optional>
#include <string>

#include "store/records.h"

namespace sweep::runner {

struct HostFacts {
  std::string hostname;
  std::string user;
  store::KeyValues run_provenance;  // hostname, cpu_model, cpu_count, kernel, os, env.<NAME> for
                                    // CUDA_VISIBLE_DEVICES, NCCL_*, OMPI_*, UCX_*, GLOO_*, SLURM_*, OMP_NUM_THREADS
};

/// Reads this machine's facts (hostname, user, /proc/cpuinfo, uname, /etc/os-release). Runs no
/// nvidia-smi: its GPUs are gpu_host_facts().
HostFacts host_facts();

/// This machine's GPUs when it has nvidia-smi: the keys of runner/gpu_facts.h and `nvidia_smi_topo`
/// (`nvidia-smi topo -m`); empty otherwise, which is not an error. Runs nvidia-smi once for each of
/// `-L`, the banner and `topo -m` (none after `-L` fails), so only the local runner, whose runs use
/// this machine's GPUs, calls it.
store::KeyValues gpu_host_facts();

/// `nics`: this machine's network interfaces, a line each: name, state and speed in Mb/s where the
/// kernel gives one (as the Slurm job script's `job.nics`).
store::KeyValues nic_host_facts();

/// `nccl.version`: the NCCL library this machine's loader finds, as ncclGetVersion reports it (the
/// bundled nccl-version program, workloads/comm); empty without NCCL, which is not an error.
store::KeyValues nccl_host_facts();

struct GitState {
  std::string commit;              // "" when `dir` is not in a git work tree or git is absent
  std::optional<bool> dirty;       // uncommitted changes; nullopt when unknown
};

/// The HEAD commit and dirty state of the repository containing `dir`, with the repository's
/// core.fsmonitor program switched off (it is never run).
GitState git_state(const std::string& dir);

}  // namespace sweep::runner
