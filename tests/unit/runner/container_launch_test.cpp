// The container's words for each runtime under each launcher, exact (docs/containers.md, "What is
// rendered"): the launcher outside, the runtime inside each task; Pyxis through srun's own options.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>

#include "runner/container_launch.h"
#include "runner/launchers.h"
#include "temp_dir.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::runner;

namespace {

const std::string kCommand = "collbench --op all_reduce";

RenderedContainer launched(const std::string& runtime, bool read_only = true) {
  RenderedContainer c;
  c.runtime = runtime;
  c.image = "/img/pt.sif";
  c.gpus = true;
  c.mounts = automatic_binds("/runs/r1", "/work", "/opt/sweep/libexec");
  c.mounts.push_back({"/data", "/d", read_only});
  c.env = {{"NCCL_DEBUG", "INFO"}, {"MSG", "a b"}};
  c.args = {runtime == "pyxis" ? "--container-remap-root" : "--cleanenv"};
  c.workdir = "/work";
  c.passthrough = {"HF_TOKEN"};
  return c;
}

spec::Workload workload(const std::string& launcher) {
  spec::Workload w;
  w.launcher = launcher;
  if (launcher == "srun" || launcher == "torchrun-env") w.mpi = "pmix";
  return w;
}

/// The job script's command: <assignments><launcher with srun options><before_command><command>.
std::string composed(const RenderedContainer& c, const std::string& launcher) {
  const ContainerWords w = container_words(c);
  return w.assignments + launch_prefix(workload(launcher), w.srun_options) + w.before_command + kCommand;
}

const std::string kApptainerWords =
    "exec --nv --bind /runs/r1:/runs/r1 --bind /work:/work --bind /opt/sweep/libexec:/opt/sweep/libexec "
    "--bind /data:/d:ro --env NCCL_DEBUG=INFO --env 'MSG=a b' --cleanenv /img/pt.sif ";
const std::string kCharliecloudWords =
    "ch-run -b /runs/r1:/runs/r1 -b /work:/work -b /opt/sweep/libexec:/opt/sweep/libexec -b /data:/d "
    "--env-no-expand --set-env=NCCL_DEBUG=INFO '--set-env=MSG=a b' -c /work --cleanenv /img/pt.sif -- ";
const std::string kPodmanWords =
    "podman run --rm --network=host --ipc=host --pid=host --device nvidia.com/gpu=all -v /runs/r1:/runs/r1 -v /work:/work "
    "-v /opt/sweep/libexec:/opt/sweep/libexec -v /data:/d:ro ${sweep_ompi_tmp:+-v \"$sweep_ompi_tmp:$sweep_ompi_tmp\"} "
    "-e 'SWEEP_*' -e 'SLURM_*' -e 'PMIX_*' -e 'PMI_*' "
    "-e 'OMPI_*' -e 'PRTE_*' -e MASTER_ADDR -e MASTER_PORT -e RANK -e WORLD_SIZE -e LOCAL_RANK -e GROUP_RANK "
    "-e NODE_RANK -e LOCAL_WORLD_SIZE -e CUDA_VISIBLE_DEVICES -e HF_TOKEN -e NCCL_DEBUG=INFO -e 'MSG=a b' -w /work "
    "--cleanenv /img/pt.sif ";
const std::string kPyxisAssignments = "NCCL_DEBUG=INFO MSG='a b' ";
const std::string kPyxisOptions =
    "--container-image=/img/pt.sif --container-name=sweep-\"${SLURM_JOB_ID}\" "
    "--container-mounts=/runs/r1:/runs/r1,/work:/work,/opt/sweep/libexec:/opt/sweep/libexec,/data:/d:ro "
    "--container-workdir=/work --container-env=NCCL_DEBUG,MSG,HF_TOKEN --container-remap-root ";

}  // namespace

TEST_CASE("container words: apptainer and singularity under every launcher") {
  for (const std::string runtime : {"apptainer", "singularity"}) {
    // The top-level env's names by reference, before the launcher: the image's ENV would win otherwise.
    const std::string host = (runtime == "apptainer" ? "APPTAINERENV_" : "SINGULARITYENV_") + std::string("HF_TOKEN=\"$HF_TOKEN\" ");
    const std::string words = runtime + " " + kApptainerWords;
    CHECK(composed(launched(runtime), "local") == host + words + kCommand);
    CHECK(composed(launched(runtime), "srun") == host + "srun --mpi=pmix " + words + kCommand);
    CHECK(composed(launched(runtime), "mpirun") == host + "mpirun " + words + kCommand);
    CHECK(composed(launched(runtime), "torchrun-env") ==
          host + launch_prefix(workload("torchrun-env")) + words + kCommand);
  }
  RenderedContainer none = launched("apptainer");
  none.passthrough.clear();
  CHECK(container_words(none).assignments.empty());
  RenderedContainer no_gpus = launched("apptainer");
  no_gpus.gpus = false;
  CHECK(container_words(no_gpus).before_command.rfind("apptainer exec --bind ", 0) == 0);
}

TEST_CASE("container words: charliecloud under every launcher") {
  const RenderedContainer c = launched("charliecloud", false);
  CHECK(composed(c, "local") == kCharliecloudWords + kCommand);
  CHECK(composed(c, "srun") == "srun --mpi=pmix " + kCharliecloudWords + kCommand);
  CHECK(composed(c, "mpirun") == "mpirun " + kCharliecloudWords + kCommand);
  CHECK(composed(c, "torchrun-env") == launch_prefix(workload("torchrun-env")) + kCharliecloudWords + kCommand);
  CHECK(container_read_only_refusal("charliecloud") ==
        "container runtime charliecloud has no read-only bind (ch-run's -b SRC[:DST]): drop the \":ro\"");
  for (const std::string runtime : {"apptainer", "singularity", "pyxis", "podman"})
    CHECK(!container_read_only_refusal(runtime));
}

TEST_CASE("container words: podman under every launcher") {
  const RenderedContainer c = launched("podman");
  CHECK(composed(c, "local") == kPodmanWords + kCommand);
  CHECK(composed(c, "srun") == "srun --mpi=pmix " + kPodmanWords + kCommand);
  CHECK(composed(c, "mpirun") == "mpirun " + kPodmanWords + kCommand);
  CHECK(composed(c, "torchrun-env") == launch_prefix(workload("torchrun-env")) + kPodmanWords + kCommand);
}

TEST_CASE("container words: podman's words bind the job script's Open MPI directory, by bash, when it is set") {
  // -e 'OMPI_*' hands OMPI_MCA_orte_tmpdir_base (the script's $sweep_ompi_tmp under the host's /tmp) in.
  TempDir dir;
  const std::string script = dir.file("words.sh");
  std::ofstream(script) << "set -- " << container_words(launched("podman")).before_command << "\nprintf '<%s>' \"$@\"\n";
  const auto words = [&](const std::string& assignment) {
    FILE* p = ::popen((assignment + " bash " + script).c_str(), "r");
    std::string out;
    for (int ch; (ch = std::fgetc(p)) != EOF;) out += static_cast<char>(ch);
    ::pclose(p);
    return out;
  };
  CHECK(words("sweep_ompi_tmp='/tmp/sweep-ompi.n x'").find("</data:/d:ro><-v></tmp/sweep-ompi.n x:/tmp/sweep-ompi.n x><-e><SWEEP_*>") !=
        std::string::npos);
  CHECK(words("sweep_ompi_tmp=").find("</data:/d:ro><-e><SWEEP_*>") != std::string::npos);  // unset: no bind
}

TEST_CASE("container words: pyxis through srun's options, refused under local and mpirun") {
  const RenderedContainer c = launched("pyxis");
  CHECK(container_words(c).before_command.empty());
  CHECK(composed(c, "srun") == kPyxisAssignments + "srun --mpi=pmix " + kPyxisOptions + kCommand);
  std::string torchrun = launch_prefix(workload("torchrun-env"));
  const auto srun_at = torchrun.find("srun --mpi=pmix ");
  REQUIRE(srun_at != std::string::npos);
  torchrun.insert(srun_at + std::string("srun --mpi=pmix ").size(), kPyxisOptions);
  CHECK(composed(c, "torchrun-env") == kPyxisAssignments + torchrun + kCommand);
  for (const std::string launcher : {"local", "mpirun"})
    CHECK(container_launcher_refusal("pyxis", launcher) ==
          "container runtime pyxis starts the container through srun's own options (--container-image), so it needs "
          "launcher srun or torchrun-env, not " +
              launcher);
  for (const std::string launcher : {"srun", "torchrun-env"}) CHECK(!container_launcher_refusal("pyxis", launcher));
  for (const std::string runtime : {"apptainer", "singularity", "podman", "charliecloud"})
    for (const std::string launcher : {"local", "srun", "mpirun", "torchrun-env"})
      CHECK(!container_launcher_refusal(runtime, launcher));
}

TEST_CASE("container words: values the runtime would take apart are refused") {
  RenderedContainer comma = launched("apptainer");
  comma.env.push_back({"NCCL_IB_HCA", "mlx5_0,mlx5_1"});
  CHECK_THROWS_WITH(container_words(comma),
                    "apptainer's --env splits a value at commas (apptainer/singularity#6088), so "
                    "container.env.NCCL_IB_HCA (\"mlx5_0,mlx5_1\") would arrive cut: set it in the top-level env "
                    "instead, which apptainer passes in from the job's environment");
  // A double quote: pflag's StringToString trims it from the word's end ('MSG=say "hi"' gives `say "hi`)
  // or fails on it as CSV when the value holds an '='.
  for (const std::string runtime : {"apptainer", "singularity"}) {
    RenderedContainer quote = launched(runtime);
    quote.env.push_back({"MSG", "say \"hi\""});
    CHECK_THROWS_WITH(container_words(quote),
                      runtime + "'s --env reads its word as CSV and trims double quotes from its ends (pflag's "
                      "StringToString), so container.env.MSG (\"say \"hi\"\") would arrive cut: set it in the "
                      "top-level env instead, which " + runtime + " passes in from the job's environment");
  }
  RenderedContainer quoted_podman = launched("podman");
  quoted_podman.env.push_back({"MSG", "say \"hi\""});
  CHECK(container_words(quoted_podman).before_command.find("-e 'MSG=say \"hi\"' ") != std::string::npos);
  RenderedContainer colon = launched("podman");
  colon.mounts.push_back({"/a:b", "/a:b", false});
  CHECK_THROWS_WITH(
      container_words(colon),
      "podman cannot bind the path \"/a:b\" into the container: podman's -v separates its parts with ':'");
  RenderedContainer list = launched("pyxis");
  list.mounts.push_back({"/a,b", "/c", false});
  CHECK_THROWS_AS(container_words(list), Error);
  CHECK_THROWS_AS(container_words(launched("docker")), Error);  // internal: the loader refuses the name
}

TEST_CASE("container words: the automatic binds, each once, at their own paths") {
  CHECK(automatic_binds("/r", "/r", "") == std::vector<ContainerBind>{{"/r", "/r", false}});
  CHECK(automatic_binds("/r", "/w", "/b") ==
        std::vector<ContainerBind>{{"/r", "/r", false}, {"/w", "/w", false}, {"/b", "/b", false}});
  CHECK(automatic_binds("", "", "").empty());
}
