#pragma once
// The container's words in a job script's command (docs/containers.md, "What is rendered"): the launcher
// (runner/launchers.h) stays outside and the runtime starts the container inside each of its tasks, as
// the runtimes' MPI guides describe (`srun ch-run IMAGE -- collbench ...`, `mpirun apptainer exec IMAGE
// collbench ...`); Pyxis takes the container through srun's own options instead. One table row per
// runtime (container_launch.cpp). Pure.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sweep::runner {

/// One bind of the container, rendered: `destination` is never empty (a mount without DST is at SRC).
struct ContainerBind {
  std::string source;
  std::string destination;
  bool read_only = false;
  friend bool operator==(const ContainerBind&, const ContainerBind&) = default;
};

/// A point's container (spec::Container) with its templates rendered at the point, and what sweep adds.
struct RenderedContainer {
  std::string runtime;  // one of spec::kContainerRuntimes
  std::string image;
  bool gpus = false;                  // the settled value: `gpus`, else whether the point asks for GPUs
  std::vector<ContainerBind> mounts;  // sweep's automatic binds first, then the user's (site's, experiment's)
  std::vector<std::pair<std::string, std::string>> env;  // set inside the container, in order
  std::vector<std::string> args;                         // the runtime's extra words, before the image
  std::string workdir;  // the run's working directory (runner::run_workdir), bound at its path
  /// The job's variables the container must see with the job's values: the names of the top-level `env`
  /// (the site's and the experiment's, secrets included). Podman takes them in (-e NAME); Pyxis lists them
  /// in --container-env and apptainer/singularity set APPTAINERENV_NAME="$NAME", so that the image's own
  /// ENV does not win over them.
  std::vector<std::string> passthrough;
};

/// Pyxis's --container-name (one container per job, imported once: the check's step and the workload's),
/// as the job shell reads it: SLURM_JOB_ID is the job's.
inline constexpr const char* kPyxisContainerName = "--container-name=sweep-\"${SLURM_JOB_ID}\"";

/// Where a container's words go in the command:
///   <assignments><launcher's words, with srun_options after srun's own><before_command><command>
struct ContainerWords {
  std::string assignments;     // shell assignments before the launcher ("NAME=value "): Pyxis's env,
                               // apptainer's APPTAINERENV_NAME="$NAME" (references, never a value)
  std::string srun_options;    // srun's own options (Pyxis), each followed by a space
  std::string before_command;  // the runtime and its words up to the command ("apptainer exec ... IMAGE ")
};

/// The automatic binds at their own paths: the run directory, the working directory and, for a bundled
/// program, the bundled programs' directory (runner/bundled_path.h); each once, in that order.
std::vector<ContainerBind> automatic_binds(const std::string& run_dir, const std::string& workdir,
                                           const std::string& bundled_dir);

/// The words of `c`, each value shell-quoted. Throws Error(invalid_experiment) without a location (the
/// caller names the container's) for a value the runtime would take apart: a bind path or, for
/// apptainer and singularity, an env value holding a comma (their lists' separator: --bind a,b;
/// apptainer/singularity#6088 for --env), or a bind path holding a ':'.
ContainerWords container_words(const RenderedContainer& c);

/// Why `runtime` cannot start in the tasks of `launcher`, or nullopt: Pyxis is srun's plugin, so it
/// needs srun or torchrun-env (whose tasks srun starts). Pure.
std::optional<std::string> container_launcher_refusal(std::string_view runtime, std::string_view launcher);

/// Why `runtime` cannot take a read-only mount, or nullopt: ch-run's -b has no read-only form
/// (ch-run(1), Charliecloud 0.31). Pure.
std::optional<std::string> container_read_only_refusal(std::string_view runtime);

}  // namespace sweep::runner
