// One row per runtime: the words between the launcher and the command, each following its manual.
#include "runner/container_launch.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>

#include "templating/render.h"
#include "util/error.h"

namespace sweep::runner {
namespace {

using templating::shell_quote;

/// "word " for each of `words`, shell-quoted.
std::string quoted(std::initializer_list<std::string> words) {
  std::string out;
  for (const std::string& w : words) out += shell_quote(w) + " ";
  return out;
}

std::string bind_text(const ContainerBind& b) { return b.source + ":" + b.destination + (b.read_only ? ":ro" : ""); }

void refuse_in_binds(const RenderedContainer& c, std::string_view chars, std::string_view why) {
  for (const ContainerBind& b : c.mounts)
    for (const std::string* path : {&b.source, &b.destination})
      if (path->find_first_of(chars) != std::string::npos)
        throw Error(ErrorKind::invalid_experiment,
                    fmt::format("{} cannot bind the path \"{}\" into the container: {}", c.runtime, *path, why));
}

std::string user_args(const RenderedContainer& c) {
  std::string out;
  for (const std::string& a : c.args) out += shell_quote(a) + " ";
  return out;
}

// Apptainer User Guide: "apptainer exec" runs a command in the image; "Bind Paths and Mounts":
// --bind src[:dest[:opts]] (opts ro), a comma-separated list, repeatable; "Environment and Metadata":
// --env NAME=VALUE (read as a comma-separated list: apptainer/singularity#6088); "GPU Support": --nv.
// The host's environment is passed in by default (the launcher's RANK, SLURM_*, ...), and the working
// directory is kept where it is bound. SingularityCE's exec takes the same options.
/// What apptainer's and singularity's --env take apart in a value: its word is read by pflag's
/// StringToString (apptainer's pkg/cmdline/flag.go), which trims '"' from the word's ends and reads a
/// word with two '=' as CSV; older releases cut it at every comma.
struct EnvHazard {
  char c;
  std::string_view what;
};
constexpr std::array<EnvHazard, 2> kApptainerEnvHazards{{
    {',', "splits a value at commas (apptainer/singularity#6088)"},
    {'"', "reads its word as CSV and trims double quotes from its ends (pflag's StringToString)"},
}};

void refuse_apptainer_env(const RenderedContainer& c) {
  for (const auto& [name, value] : c.env)
    for (const EnvHazard& h : kApptainerEnvHazards)
      if (value.find(h.c) != std::string::npos)
        throw Error(ErrorKind::invalid_experiment,
                    fmt::format("{}'s --env {}, so container.env.{} (\"{}\") would arrive cut: set it in the top-level "
                                "env instead, which {} passes in from the job's environment",
                                c.runtime, h.what, name, value, c.runtime));
}

/// "Environment from the host" (Apptainer User Guide, SingularityCE's likewise): a host variable does not
/// override one the image sets, but APPTAINERENV_NAME (SINGULARITYENV_NAME) does; --env wins over both.
/// So each top-level `env` name is handed on by reference, never by value (a secret's value stays in the
/// process environment: runner/job_secrets.h).
std::string host_env_overrides(const RenderedContainer& c) {
  const std::string prefix = c.runtime == "singularity" ? "SINGULARITYENV_" : "APPTAINERENV_";
  std::string out;
  for (const std::string& name : c.passthrough) out += prefix + name + "=\"$" + name + "\" ";
  return out;
}

void apptainer(const RenderedContainer& c, ContainerWords& w) {
  refuse_in_binds(c, ",:", "apptainer's --bind separates binds with ',' and its parts with ':'");
  refuse_apptainer_env(c);
  w.assignments = host_env_overrides(c);
  w.before_command = c.runtime + " exec " + (c.gpus ? "--nv " : "");
  for (const ContainerBind& b : c.mounts) w.before_command += quoted({"--bind", bind_text(b)});
  for (const auto& [name, value] : c.env) w.before_command += quoted({"--env", name + "=" + value});
  w.before_command += user_args(c) + shell_quote(c.image) + " ";
}

// ch-run(1), Charliecloud 0.31: -b SRC[:DST] (repeatable; DST must exist in a read-only image),
// --set-env=VAR=VALUE, -c DIR (initial working directory), then IMAGE -- CMD. The host's environment
// is passed in. No GPU option: the NVIDIA libraries are put into the image (ch-fromhost --nvidia) and
// /dev is the host's. --env-no-expand before the --set-env options: ch-run otherwise reads a value as a
// search path and replaces each `$NAME` item with the host's variable (`A=$HOME/x` arrived empty).
void charliecloud(const RenderedContainer& c, ContainerWords& w) {
  refuse_in_binds(c, ":", "ch-run's -b separates SRC and DST with ':'");
  w.before_command = "ch-run ";
  for (const ContainerBind& b : c.mounts) w.before_command += quoted({"-b", b.source + ":" + b.destination});
  if (!c.env.empty()) w.before_command += "--env-no-expand ";
  for (const auto& [name, value] : c.env) w.before_command += shell_quote("--set-env=" + name + "=" + value) + " ";
  w.before_command += quoted({"-c", c.workdir}) + user_args(c) + shell_quote(c.image) + " -- ";
}

/// What a podman container takes from the job's environment (it takes nothing by default): sweep's
/// own variables, what srun, Open MPI, PMIx and torchrun-env give each task, and the GPUs it was given.
constexpr std::array<std::string_view, 15> kPodmanPassthrough{
    "SWEEP_*",     "SLURM_*",          "PMIX_*",
    "PMI_*",       "OMPI_*",           "PRTE_*",
    "MASTER_ADDR", "MASTER_PORT",      "RANK",
    "WORLD_SIZE",  "LOCAL_RANK",       "GROUP_RANK",
    "NODE_RANK",   "LOCAL_WORLD_SIZE", "CUDA_VISIBLE_DEVICES"};

// podman-run(1), Podman 4.3: run --rm; --network=host and --ipc=host (the host's interfaces and shared
// memory, which MPI and NCCL use between tasks); --pid=host (two ranks, each pid 1 in its own pid namespace,
// crashed in Open MPI's shared-memory transport, mca_btl_vader_sendi, seen here; the podman.io blog's "Podman in HPC environments" runs mpirun's ranks with --net=host --pid=host
// --ipc=host and orte_tmpdir_base bound); --device nvidia.com/gpu=all (CDI, from nvidia-ctk cdi
// generate); -v SRC:DST[:ro]; -e NAME=VALUE, and -e NAME or -e 'PREFIX*' without a value to take the
// host's (--env); -w DIR (--workdir); then IMAGE CMD. The job script's own Open MPI session directory
// ($sweep_ompi_tmp, templates/*/run.sh.mustache), which -e 'OMPI_*' names in OMPI_MCA_orte_tmpdir_base,
// is bound at its path whenever the script set it: a shell reference, so under every launcher.
void podman(const RenderedContainer& c, ContainerWords& w) {
  refuse_in_binds(c, ":", "podman's -v separates its parts with ':'");
  w.before_command = "podman run --rm --network=host --ipc=host --pid=host ";
  if (c.gpus) w.before_command += "--device nvidia.com/gpu=all ";
  for (const ContainerBind& b : c.mounts) w.before_command += quoted({"-v", bind_text(b)});
  w.before_command += "${sweep_ompi_tmp:+-v \"$sweep_ompi_tmp:$sweep_ompi_tmp\"} ";
  for (const std::string_view name : kPodmanPassthrough) w.before_command += quoted({"-e", std::string(name)});
  for (const std::string& name : c.passthrough) w.before_command += quoted({"-e", name});
  for (const auto& [name, value] : c.env) w.before_command += quoted({"-e", name + "=" + value});
  w.before_command += quoted({"-w", c.workdir}) + user_args(c) + shell_quote(c.image) + " ";
}

// Pyxis README ("Usage": the options it adds to srun): --container-image=IMAGE (a registry reference
// such as nvcr.io#nvidia/pytorch:24.01-py3, or a squashfs file), --container-mounts=SRC:DST[:FLAGS][,...],
// --container-workdir=DIR, --container-env=NAME[,NAME...] (those of the host's variables that override
// the image's, NVIDIA/pyxis#124: container.env's values are set here, before srun, which passes its
// environment to the tasks; the top-level env's names follow, their values the job's own).
// Enroot's hooks give the container the job's GPUs. --container-name=NAME: the first step that names it
// imports and unpacks the image, later steps of the job reuse that container (the check's step, then the
// workload's on every node); sweep-${SLURM_JOB_ID} (left to the job shell) is the job's own name, also
// under pyxis's container_scope=global.
void pyxis(const RenderedContainer& c, ContainerWords& w) {
  refuse_in_binds(c, ",:", "pyxis's --container-mounts separates mounts with ',' and their parts with ':'");
  std::string mounts, names;
  for (const ContainerBind& b : c.mounts) mounts += (mounts.empty() ? "" : ",") + bind_text(b);
  for (const auto& [name, value] : c.env) {
    w.assignments += name + "=" + shell_quote(value) + " ";
    names += (names.empty() ? "" : ",") + name;
  }
  for (const std::string& name : c.passthrough)
    if (std::none_of(c.env.begin(), c.env.end(), [&](const auto& e) { return e.first == name; }))
      names += (names.empty() ? "" : ",") + name;
  w.srun_options = shell_quote("--container-image=" + c.image) + " " + kPyxisContainerName + " ";
  if (!mounts.empty()) w.srun_options += shell_quote("--container-mounts=" + mounts) + " ";
  w.srun_options += shell_quote("--container-workdir=" + c.workdir) + " ";
  if (!names.empty()) w.srun_options += shell_quote("--container-env=" + names) + " ";
  w.srun_options += user_args(c);
}

struct Runtime {
  std::string_view name;
  void (*render)(const RenderedContainer&, ContainerWords&);
  bool through_srun;     // started by srun's own options, so only in srun's tasks
  bool read_only_binds;  // has a read-only bind
};

constexpr std::array<Runtime, 5> kRuntimes{{
    {"apptainer", apptainer, false, true},
    {"singularity", apptainer, false, true},
    {"pyxis", pyxis, true, true},
    {"podman", podman, false, true},
    {"charliecloud", charliecloud, false, false},
}};

const Runtime& runtime(std::string_view name) {
  for (const Runtime& r : kRuntimes)
    if (r.name == name) return r;
  throw Error(ErrorKind::internal, fmt::format("no container runtime named {}", name));
}

}  // namespace

std::vector<ContainerBind> automatic_binds(const std::string& run_dir, const std::string& workdir,
                                           const std::string& bundled_dir) {
  std::vector<ContainerBind> out;
  for (const std::string* dir : {&run_dir, &workdir, &bundled_dir})
    if (!dir->empty() && std::none_of(out.begin(), out.end(), [&](const ContainerBind& b) { return b.source == *dir; }))
      out.push_back({*dir, *dir, false});
  return out;
}

ContainerWords container_words(const RenderedContainer& c) {
  ContainerWords w;
  runtime(c.runtime).render(c, w);
  return w;
}

std::optional<std::string> container_launcher_refusal(std::string_view runtime_name, std::string_view launcher) {
  if (!runtime(runtime_name).through_srun || launcher == "srun" || launcher == "torchrun-env") return std::nullopt;
  return fmt::format(
      "container runtime {} starts the container through srun's own options (--container-image), so it "
      "needs launcher srun or torchrun-env, not {}",
      runtime_name, launcher);
}

std::optional<std::string> container_read_only_refusal(std::string_view runtime_name) {
  if (runtime(runtime_name).read_only_binds) return std::nullopt;
  return fmt::format("container runtime {} has no read-only bind (ch-run's -b SRC[:DST]): drop the \":ro\"",
                     runtime_name);
}

}  // namespace sweep::runner
