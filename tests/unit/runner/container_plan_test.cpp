// A campaign's container in its plan: every job script's command gets the container's words and the
// check, with the real templates/ of both executors; what cannot run is refused at plan time, naming
// the container's file:line:column.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "runner/campaign_plan.h"
#include "spec/load.h"
#include "spec/site.h"
#include "temp_dir.h"
#include "util/error.h"

using namespace sweep;

namespace {

const std::string kTemplates = SWEEP_SOURCE_DIR + "/templates";

spec::Experiment experiment(const std::string& container, const std::string& rest = "") {
  return spec::load_text("name: t\nmatrix:\n  tag: [\"1.0\", \"2.0\"]\nworkload:\n  command: train --tag {{tag}}\n" +
                             rest + "container:\n" + container,
                         "t.yaml");
}

std::string plan_error(spec::Experiment e, const std::string& templates = kTemplates) {
  try {
    runner::CampaignPlan plan(std::move(e), templates);
  } catch (const Error& err) {
    CHECK(err.kind() == ErrorKind::invalid_experiment);
    return err.what();
  }
  return "no error";
}

/// The job script of the first point's first attempt, its workload's launcher set to `launcher` if given.
std::string first_script(spec::Experiment e, const std::string& launcher = "") {
  if (!launcher.empty()) e.workloads[0].launcher = launcher;
  const runner::CampaignPlan plan(std::move(e), kTemplates);
  return plan.render_script(plan.points()[0], {"camp", 1, 0, 1, "/runs/c/r", "/exp", "/launch"});
}

}  // namespace

TEST_CASE("container plan: the local job script runs the command in the container, after the check") {
  const runner::CampaignPlan plan(
      experiment("  runtime: apptainer\n  image: \"/img/pt-{{tag}}.sif\"\n  env: {V: \"{{tag}}\"}\n"), kTemplates);
  const std::string script =
      plan.render_script(plan.points()[1], {"camp", 7, 0, 1, "/runs/c/p.rep0.attempt1", "/exp", "/launch"});
  const std::string words =
      "apptainer exec --bind /runs/c/p.rep0.attempt1:/runs/c/p.rep0.attempt1 --bind /exp:/exp "
      "--env V=2.0 /img/pt-2.0.sif ";
  CHECK(script.find("\n" + words + "train --tag 2.0\n") != std::string::npos);
  const auto check = script.find("sweep_container_failed CONTAINER_RUNTIME");
  CHECK(check != std::string::npos);
  CHECK(script.find("# Environment: the site's and the experiment's setup and env") < check);
  CHECK(check < script.find("\n" + words + "train"));
  // The id cache is the results root's (the run root's parent), shared by the campaigns of one database.
  CHECK(script.find("--cache /runs/.sweep-image-ids ") != std::string::npos);
  CHECK(script.find("/runs/c/.sweep-image-ids") == std::string::npos);
  CHECK(script.find("[ -e /dev/nvidiactl ] && echo sweep-gpu-device; exit 0'") != std::string::npos);
  CHECK(script.find("CONTAINER_GPU") == std::string::npos);  // the point asks for no GPU: gpus defaults to false
}

TEST_CASE("container plan: gpus defaults to the point's GPU request, and an own gpus wins") {
  const runner::CampaignPlan asks(
      experiment("  runtime: podman\n  image: pt\n", "resources: {gpus: 1}\nexecutor: slurm\n"), kTemplates);
  const std::string script = asks.render_script(asks.points()[0], {"camp", 1, 0, 1, "/runs/c/r", "/exp", "/launch"});
  CHECK(script.find("podman run --rm --network=host --ipc=host --pid=host --device nvidia.com/gpu=all ") != std::string::npos);
  CHECK(script.find("CONTAINER_GPU") != std::string::npos);
  CHECK(script.find("rm -rf exit_code setup_failed setup.log stdout stderr provenance") != std::string::npos);
  const runner::CampaignPlan own(
      experiment("  runtime: podman\n  image: pt\n  gpus: false\n", "resources: {gpus: 1}\nexecutor: slurm\n"),
      kTemplates);
  CHECK(own.render_script(own.points()[0], {"camp", 1, 0, 1, "/runs/c/r", "/exp", "/launch"}).find("nvidia.com/gpu") ==
        std::string::npos);
}

namespace {

/// The per-node step's `sh -c '...' sh "$sweep_ompi_tmp"` of a multi-node job script, its script alone.
std::string per_node_directory_step(const std::string& script) {
  const std::string head = "--ntasks=\"$SLURM_JOB_NUM_NODES\" sh -c '";
  const auto from = script.find(head);
  REQUIRE(from != std::string::npos);
  const auto begin = from + head.size();
  return script.substr(begin, script.find("' sh \"$sweep_ompi_tmp\"", begin) - begin);
}

/// The step's script run by the real sh on `path`: its exit status.
int run_step(const std::string& step, const std::string& path) {
  TempDir dir;
  std::ofstream(dir.file("step.sh")) << step;
  return std::system(("sh " + dir.file("step.sh") + " '" + path + "'").c_str());
}

}  // namespace

TEST_CASE("container plan: a multi-node slurm job makes the Open MPI directory podman binds on every node") {
  const std::string script = first_script(
      experiment("  runtime: podman\n  image: pt\n", "executor: slurm\nresources: {nodes: 2}\n"), "srun");
  // podman refuses a bind source that is not there ("Error: statfs ...: no such file or directory"),
  // and the path is the first node's mktemp -d: each node gets it, in a step of its own, before the check.
  const auto made = script.find(
      "if [ \"${SLURM_JOB_NUM_NODES:-1}\" -gt 1 ]; then\n"
      "  srun --ntasks-per-node=1 --ntasks=\"$SLURM_JOB_NUM_NODES\" sh -c '");
  REQUIRE(made != std::string::npos);
  CHECK(script.find("sweep_ompi_tmp=$(mktemp -d ") < made);
  CHECK(made < script.find("sweep_container_failed CONTAINER_RUNTIME"));
  CHECK(made < script.find("-v \"$sweep_ompi_tmp:$sweep_ompi_tmp\""));
  CHECK(script.find("timeout 20 srun --ntasks-per-node=1 --ntasks=\"$SLURM_JOB_NUM_NODES\" rm -rf \"$sweep_ompi_tmp\"") !=
        std::string::npos);  // and removed from each at the end
}

TEST_CASE("container plan: the per-node Open MPI directory is made new, or taken only as the user's own") {
  const std::string step = per_node_directory_step(first_script(
      experiment("  runtime: podman\n  image: pt\n", "executor: slurm\nresources: {nodes: 2}\n"), "srun"));
  TempDir dir;
  const std::string fresh = dir.file("sweep-ompi.n1.fresh");
  CHECK(run_step(step, fresh) == 0);  // another node: made, 0700
  CHECK((std::filesystem::status(fresh).permissions() & std::filesystem::perms::all) == std::filesystem::perms::owner_all);
  CHECK(run_step(step, fresh) == 0);  // the first node: mktemp's own directory, taken
  std::filesystem::create_directory_symlink(fresh, dir.file("planted-link"));
  CHECK(run_step(step, dir.file("planted-link")) != 0);  // a link planted at the name: refused
  if (geteuid() != 0) return;  // another user's directory needs chown
  const std::string theirs = dir.file("planted-dir");
  std::filesystem::create_directory(theirs);
  REQUIRE(std::system(("chown 65534 '" + theirs + "'").c_str()) == 0);
  CHECK(run_step(step, theirs) != 0);
}

TEST_CASE("container plan: pyxis goes into srun's options on the slurm executor") {
  const std::string script = first_script(experiment("  runtime: pyxis\n  image: \"nvcr.io#nvidia/pytorch:{{tag}}\"\n",
                                                     "executor: slurm\nresources: {nodes: 1}\n"),
                                          "srun");
  CHECK(script.find(
            "\nsrun '--container-image=nvcr.io#nvidia/pytorch:1.0' --container-name=sweep-\"${SLURM_JOB_ID}\" "
            "--container-mounts=/runs/c/r:/runs/c/r,/exp:/exp "
            "--container-workdir=/exp train --tag 1.0\n") != std::string::npos);
}

TEST_CASE("container plan: what cannot run is refused at plan time, at the container's place") {
  spec::Experiment mpirun = experiment("  runtime: pyxis\n  image: x\n");
  mpirun.workloads[0].launcher = "mpirun";
  CHECK(
      plan_error(std::move(mpirun)) ==
      "t.yaml:7:12: container runtime pyxis starts the container through srun's own options (--container-image), so it "
      "needs launcher srun or torchrun-env, not mpirun (the workload at t.yaml:5:3); Pyxis runs only in srun's tasks");
  CHECK(plan_error(experiment("  runtime: charliecloud\n  image: /img\n  mounts: [\"/d:/d:ro\"]\n")) ==
        "t.yaml:9:13: container runtime charliecloud has no read-only bind (ch-run's -b SRC[:DST]): drop the \":ro\"");
  CHECK(plan_error(experiment("  runtime: podman\n  image: \"pt-{{tga}}\"\n")).rfind("t.yaml:8:11: ", 0) == 0);
  CHECK(plan_error(experiment("  image: /img/a.sif\n"))
            .rfind("t.yaml:7:10: container.image is given, but no container.runtime", 0) == 0);
  CHECK(plan_error(experiment("  runtime: apptainer\n  image: /img/a.sif\n  env: {IB: \"a,{{tag}}\"}\n"))
            .rfind("t.yaml:7:3: apptainer's --env splits a value at commas", 0) == 0);
  TempDir dir;
  std::filesystem::create_directories(dir.path / "local");
  std::ofstream(dir.path / "local" / "run.sh.mustache") << "{{{environment}}}\n{{{command}}}\n";
  CHECK(plan_error(experiment("  runtime: podman\n  image: pt\n"), dir.path.string()) ==
        "t.yaml:7:3: the job-script template " + dir.path.string() +
            "/local/run.sh.mustache has no {{{container_check}}}, so the container would start unchecked; add it after "
            "{{{environment}}}");
  CHECK(plan_error(experiment("  none\n"), dir.path.string()) == "no error");
}

TEST_CASE("container plan: the run root and the workdir are bound at plan time, and refused there") {
  const auto dirs_error = [](spec::Experiment e, const runner::PlanDirs& dirs) {
    try {
      runner::CampaignPlan plan(std::move(e), kTemplates, runner::PlanUse::check, matrix::kDefaultMaxPoints, dirs);
    } catch (const Error& err) {
      return std::string(err.what());
    }
    return std::string("no error");
  };
  const std::string apptainer = "  runtime: apptainer\n  image: /img/a.sif\n";
  // The workdir, rendered with the run variables empty: a ',' in it is in every run's.
  CHECK(dirs_error(experiment(apptainer, "workdir: \"/w/a,b/{{run_id}}\"\n"), {"/res/c", "/exp", "/launch"})
            .rfind("t.yaml:8:3: apptainer cannot bind the path \"/w/a,b/\" into the container: apptainer's --bind "
                   "separates binds with ',' and its parts with ':' (at the point ",
                   0) == 0);
  // The run root: each run directory lies under it.
  CHECK(dirs_error(experiment("  runtime: podman\n  image: pt\n"), {"/res:x/c", "/exp", "/launch"})
            .rfind("t.yaml:7:3: podman cannot bind the path \"/res:x/c/", 0) == 0);
  CHECK(dirs_error(experiment(apptainer, "workdir: launch\n"), {"/res/c", "/exp", "/l,x"})
            .find("cannot bind the path \"/l,x\"") != std::string::npos);
  CHECK(dirs_error(experiment(apptainer, "workdir: \"/w/{{run_id}}\"\n"), {"/res/c", "/exp", "/launch"}) == "no error");
  CHECK(dirs_error(experiment(apptainer, "workdir: \"/w/a,b\"\n"), {}) == "no error");  // no dirs: not bound
}

TEST_CASE("container plan: a mount that renders to a relative path is refused at the mount") {
  CHECK(plan_error(experiment("  runtime: podman\n  image: pt\n  mounts: [\"{{tag}}:/d\"]\n")) ==
        "t.yaml:9:13: the mount renders to \"1.0\", not an absolute path (podman would take a relative source for a "
        "named volume): a mount's parameters must hold absolute paths");
}

TEST_CASE("container plan: a parameter that puts a line break in a container value is refused at the value") {
  const auto with = [](const std::string& container) {
    return spec::load_text("name: t\nmatrix:\n  v: [\"x\\nsweep-gpu-device\\nNCCL_NET=IB\"]\nworkload:\n  command: "
                           "train\ncontainer:\n  runtime: podman\n" + container,
                           "t.yaml");
  };
  CHECK(plan_error(with("  image: pt\n  env: {FOO: \"{{v}}\"}\n")) ==
        "t.yaml:9:15: the container value renders to \"x\nsweep-gpu-device\nNCCL_NET=IB\", which holds a line break: "
        "a parameter used in container must hold one line");
  CHECK(plan_error(with("  image: \"pt{{v}}\"\n")).rfind("t.yaml:8:11: the container value renders to", 0) == 0);
  CHECK(plan_error(with("  image: pt\n  args: [\"{{v}}\"]\n")).rfind("t.yaml:9:11: the container value renders", 0) == 0);
  CHECK(plan_error(with("  image: pt\n  mounts: [\"/a{{v}}\"]\n")).rfind("t.yaml:9:13: the container value renders", 0) == 0);
}

TEST_CASE("container plan: an image that renders to a word beginning with '-' is refused, never a runtime option") {
  const auto e = spec::load_text("name: t\nmatrix:\n  img: [\"pt\", \"--privileged\"]\nworkload:\n  command: train\n"
                                 "container:\n  runtime: podman\n  image: \"{{img}}\"\n",
                                 "t.yaml");
  CHECK_THAT(plan_error(e), Catch::StartsWith("t.yaml:8:11: container.image renders to \"--privileged\" at the point ") &&
                                Catch::EndsWith("which begins with '-': the runtime would take it for an option, not an image"));
}

TEST_CASE("container plan: the top-level env reaches pyxis's and apptainer's containers over the image's ENV") {
  const std::string script = first_script(
      experiment("  runtime: pyxis\n  image: pt\n",
                 "executor: slurm\nresources: {nodes: 1}\nenv: {NCCL_IB_PCI_RELAXED_ORDERING: 1}\n"),
      "srun");
  CHECK(script.find("--container-workdir=/exp --container-env=NCCL_IB_PCI_RELAXED_ORDERING train") != std::string::npos);
  const std::string local =
      first_script(experiment("  runtime: apptainer\n  image: /i.sif\n", "env: {NCCL_IB_PCI_RELAXED_ORDERING: 1}\n"));
  CHECK(local.find("\nAPPTAINERENV_NCCL_IB_PCI_RELAXED_ORDERING=\"$NCCL_IB_PCI_RELAXED_ORDERING\" apptainer exec ") !=
        std::string::npos);
  // A host tool put on PATH (or a library path) for the job shell stays out: the image keeps its own.
  const std::string paths = first_script(experiment(
      "  runtime: apptainer\n  image: /i.sif\n", "env: {UCX_TLS: rc, PATH: \"/opt/tool/bin:$PATH\", LD_LIBRARY_PATH: /opt/l}\n"));
  CHECK(paths.find("APPTAINERENV_UCX_TLS=\"$UCX_TLS\" ") != std::string::npos);
  CHECK(paths.find("APPTAINERENV_PATH") == std::string::npos);
  CHECK(paths.find("APPTAINERENV_LD_LIBRARY_PATH") == std::string::npos);
}

TEST_CASE("container plan: sweep plan's line of the container") {
  CHECK(runner::container_summary(
            experiment("  runtime: apptainer\n  image: \"/img/pt-{{tag}}.sif\"\n  mounts: [/s]\n").container) ==
        "container: apptainer, image /img/pt-{{tag}}.sif, gpus where the point asks for them, 1 mount of the "
        "experiment's "
        "and the site's (and sweep's binds: the run directory, the working directory); each run's words: sweep run "
        "--dry-run");
  CHECK(runner::container_summary(experiment("  none\n").container).empty());
}

TEST_CASE("container plan: every runtime's job script, local and slurm, is valid bash") {
  TempDir dir;
  const std::vector<std::string> runtimes{"apptainer", "singularity", "podman", "charliecloud", "pyxis"};
  for (const std::string executor : {"local", "slurm"})
    for (const std::string& runtime : runtimes) {
      if (runtime == "pyxis" && executor == "local") continue;  // srun's plugin: refused there (above)
      spec::Experiment e = experiment(
          "  runtime: " + runtime + "\n  image: \"/img/it's {{tag}}\"\n  env: {Q: \"a'b\"}\n  args: [\"--x=$HOME\"]\n",
          "executor: " + executor + "\n");
      if (executor == "slurm") e.workloads[0].launcher = "srun";
      const runner::CampaignPlan plan(std::move(e), kTemplates);
      const std::string path = dir.file(runtime + "-" + executor + ".sh");
      std::ofstream(path) << plan.render_script(plan.points()[0], {"camp", 1, 0, 1, "/runs/c/r 1", "/exp", "/launch"});
      INFO(path);
      CHECK(std::system(("bash -n '" + path + "'").c_str()) == 0);
    }
}
