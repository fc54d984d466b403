#pragma once
// Rank discovery from the launcher's environment variables. Pure: the caller passes a lookup.
//
// Order of precedence (the first source whose variables are set wins):
//   1. torchrun style: RANK and WORLD_SIZE (LOCAL_RANK, MASTER_ADDR, MASTER_PORT optional). A launcher
//      that sets these did so on purpose, so they override what the scheduler says.
//   2. OpenMPI: OMPI_COMM_WORLD_RANK and OMPI_COMM_WORLD_SIZE (OMPI_COMM_WORLD_LOCAL_RANK). mpirun
//      inside a Slurm allocation inherits the batch step's SLURM_PROCID=0, so OpenMPI wins over Slurm.
//   3. Slurm: SLURM_PROCID and SLURM_STEP_NUM_TASKS (else SLURM_NTASKS) (SLURM_LOCALID,
//      SLURM_NODEID); the master is the first host of SLURM_STEP_NODELIST (else SLURM_JOB_NODELIST).
//   4. none: a single process, rank 0 of 1.
// MASTER_ADDR and MASTER_PORT, when set, override the master of sources 2-3 too.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace sweep::comm {

struct RankInfo {
  int rank = 0;
  int world_size = 1;
  int local_rank = 0;
  std::string master_addr;  // "" when the source names none
  int master_port = 0;      // 0 when the source names none
  std::string source;       // "torchrun", "openmpi", "slurm" or "none"
};

using EnvLookup = std::function<std::optional<std::string>(std::string_view name)>;

/// Discovers the rank. Throws std::runtime_error naming the variable and its value when a variable
/// is not a valid integer, when world size < 1, or when rank is outside [0, world size).
RankInfo discover_rank(const EnvLookup& env);

/// discover_rank() over the process environment.
RankInfo discover_rank_from_environment();

/// The first host of a Slurm node list: "n[1-2]" -> "n1", "gpu-a[03,07],cpu1" -> "gpu-a03".
std::string first_host(std::string_view nodelist);

}  // namespace sweep::comm
