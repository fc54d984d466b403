// The job script's container check (runner/container_check.h): its text per runtime, and the text run
// for real by bash: a runtime that is not there, an image that is not there, and Charliecloud's ch-run
// (installed here) starting a busybox directory image without the GPU it was to have, or failing to.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "runner/container_check.h"
#include "temp_dir.h"

using namespace sweep::runner;
namespace fs = std::filesystem;

namespace {

RenderedContainer container(const std::string& runtime, const std::string& image, bool gpus) {
  RenderedContainer c;
  c.runtime = runtime;
  c.image = image;
  c.gpus = gpus;
  c.env = {{"NCCL_DEBUG", "INFO"}};
  c.workdir = "/work";
  return c;
}

std::string check(const RenderedContainer& c,
                  const ContainerCheckPaths& paths = {"/opt/sweep/sweep-image-id", "/runs/.sweep-image-ids"}) {
  return container_check(c, container_words(c), paths);
}

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Ran {
  int status;
  std::string failed;  // container_failed, "" when absent
};

/// Runs `check` for real in bash in the run directory `dir`, then `echo workload-ran` as a job script
/// would; `env` is put before it (PATH, variables). Its status and what it left.
Ran run_check(const TempDir& dir, const std::string& check_text, const std::string& env = "") {
  std::ofstream(dir.file("run.sh")) << "export SWEEP_RUN_DIR=" << dir.path.string() << "\ncd \"$SWEEP_RUN_DIR\"\n"
                                    << env << "\n"
                                    << check_text << "echo workload-ran > ran\n";
  const int raw = std::system(("bash " + dir.file("run.sh") + " > " + dir.file("out") + " 2>&1").c_str());
  return {WEXITSTATUS(raw), read(dir.path / "container_failed")};
}

/// A Charliecloud directory image of busybox (static), with the mount points ch-run needs; without
/// /bin/sh when `shell` is false.
std::string busybox_image(const TempDir& dir, bool shell = true) {
  const fs::path img = dir.path / "img";
  for (const char* d : {"bin", "dev", "proc", "sys", "etc", "tmp", "mnt"}) fs::create_directories(img / d);
  fs::copy_file("/bin/busybox", img / "bin" / "busybox");
  if (shell) fs::create_symlink("busybox", img / "bin" / "sh");
  std::ofstream(img / "etc" / "passwd") << "root:x:0:0::/:/bin/sh\n";
  std::ofstream(img / "etc" / "group") << "root:x:0:\n";
  return img.string();
}

/// The id the real sweep-image-id prints for `image` (without a cache).
std::string image_id(const TempDir& dir, const std::string& image) {
  const std::string cmd = std::string(SWEEP_IMAGE_ID_BIN) + " " + image + " > " + dir.file("id");
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::string text = read(dir.path / "id");
  text = text.substr(0, text.find('\n'));
  REQUIRE(text.starts_with("sha256:"));
  return text;
}

/// container_env of a start with NCCL_DEBUG=INFO set and NCCL_IB_KEY=s3cret UCX_TLS=rc OTHER=x exported.
void check_masked_env(const std::string& env) {
  CHECK(env.find("NCCL_DEBUG=INFO\n") != std::string::npos);
  CHECK(env.find("NCCL_IB_KEY=***\n") != std::string::npos);
  CHECK(env.find("s3cret") == std::string::npos);
  CHECK(env.find("UCX_TLS=rc\n") != std::string::npos);
  CHECK(env.find("OTHER") == std::string::npos);
}

bool have_charliecloud() { return std::system("command -v ch-run > /dev/null && [ -x /bin/busybox ]") == 0; }

}  // namespace

TEST_CASE("container check text: apptainer's runtime, image, provenance and one start") {
  const std::string a = check(container("apptainer", "/img/pt.sif", true));
  CHECK(a.find("command -v apptainer > /dev/null || sweep_container_failed CONTAINER_RUNTIME \"the container runtime's "
               "program apptainer is not found on node $sweep_container_node (PATH=$PATH)\" 127\n"
               "sweep_container_version=$(apptainer --version 2>&1 | head -n 1)\n"
               "sweep_container_image=/img/pt.sif\n"
               "if [ -n \"${sweep_container_storage_name:-}\" ]; then sweep_container_kind=reference\n"
               "elif [ -f \"$sweep_container_image\" ]; then sweep_container_kind=file\n") != std::string::npos);
  // sweep-image-id makes its cache itself; its stderr is kept in container_check.log, which the start
  // appends to (it used to wipe it with 2>).
  CHECK(a.find("if [ -x /opt/sweep/sweep-image-id ] && [ \"$sweep_container_kind\" != reference ]; then\n"
               "  sweep_container_id=$(/opt/sweep/sweep-image-id --verbose --cache /runs/.sweep-image-ids "
               "\"$sweep_container_image\"") != std::string::npos);
  CHECK(a.find("mkdir -m 0700") == std::string::npos);
  CHECK(a.find("sweep_container_out=$(apptainer exec --nv --env NCCL_DEBUG=INFO /img/pt.sif /bin/sh -c 'for n in "
               "$(env | sed -n -E ") != std::string::npos);
  CHECK(a.find("[ -e /dev/nvidiactl ] && echo sweep-gpu-device; exit 0' 2>> \"$SWEEP_RUN_DIR/container_check.log\")\n") !=
        std::string::npos);
  CHECK(a.find("sweep_container_failed CONTAINER_GPU") != std::string::npos);
  CHECK(check(container("apptainer", "/img/pt.sif", false)).find("CONTAINER_GPU") == std::string::npos);
  CHECK(check(container("apptainer", "docker://nvcr.io/nvidia/pytorch:24.01-py3", false))
            .find("sweep_container_kind=reference sweep_container_id=\n") != std::string::npos);
}

TEST_CASE("container check text: pyxis finds srun with --container-image and starts on one node") {
  const std::string p = check(container("pyxis", "nvcr.io#nvidia/pytorch:24.01-py3", true));
  CHECK(p.find("command -v srun > /dev/null || sweep_container_failed CONTAINER_RUNTIME \"the container runtime's "
               "program srun (pyxis) is not found") != std::string::npos);
  CHECK(p.find("srun --help 2>&1 | grep -q -- --container-image || sweep_container_failed CONTAINER_RUNTIME") !=
        std::string::npos);
  CHECK(p.find("sweep_container_kind=reference") != std::string::npos);
  CHECK(p.find("sweep_container_out=$(NCCL_DEBUG=INFO srun --nodes=1 --ntasks=1 "
               "'--container-image=nvcr.io#nvidia/pytorch:24.01-py3' --container-name=sweep-\"${SLURM_JOB_ID}\" "
               "--container-workdir=/work --container-env=NCCL_DEBUG /bin/sh -c ") != std::string::npos);
  CHECK(check(container("pyxis", "/sqsh/pt.sqsh", true)).find("if [ -f \"$sweep_container_image\" ]") !=
        std::string::npos);
}

TEST_CASE("container check text: podman's image in its storage, and its GPU refusal as CONTAINER_GPU") {
  const std::string m = check(container("podman", "localhost/pt:1", false));
  CHECK(m.find("podman image exists \"$sweep_container_image\" 2>> \"$SWEEP_RUN_DIR/container_check.log\" || "
               "sweep_container_failed CONTAINER_IMAGE") != std::string::npos);
  CHECK(m.find("sweep_container_id=$(podman image inspect --format '{{.Id}}' \"$sweep_container_image\"") !=
        std::string::npos);

  // podman refuses --device nvidia.com/gpu=all itself where there is no CDI specification: with gpus,
  // that failed start is CONTAINER_GPU, checked before the generic CONTAINER.
  const std::string mg = check(container("podman", "localhost/pt:1", true));
  const auto gpu_at = mg.find("if [ \"$sweep_container_status\" -ne 0 ] && grep -Eq 'unresolvable CDI devices' "
                              "\"$SWEEP_RUN_DIR/container_check.log\"; then sweep_container_failed CONTAINER_GPU \"gpus: "
                              "true, but podman could not give the container the GPUs on node ");
  CHECK(gpu_at != std::string::npos);
  CHECK(gpu_at < mg.find("sweep_container_failed CONTAINER \""));
  CHECK(m.find("unresolvable CDI devices") == std::string::npos);
  CHECK(check(container("apptainer", "/img/pt.sif", true)).find("could not give the container the GPUs") == std::string::npos);
}

TEST_CASE("container check text: charliecloud exports USER first, and no container gives no text") {
  const std::string ch = check(container("charliecloud", "/img/dir", false));
  CHECK(ch.find("[ -n \"${USER:-}\" ] || export USER=\"$(id -un)\"") < ch.find("command -v ch-run"));
  CHECK(ch.find("ch-run --env-no-expand --set-env=NCCL_DEBUG=INFO -c /work /img/dir -- /bin/sh -c ") !=
        std::string::npos);
  CHECK(container_check(RenderedContainer{}, {}, {}).empty());
}

TEST_CASE("container check run: a runtime that is not on the node is CONTAINER_RUNTIME, the workload not run") {
  TempDir dir;
  const Ran r = run_check(dir, check(container("apptainer", "/img/pt.sif", false)), "PATH=/usr/bin:/bin");
  CHECK(r.status == 127);
  CHECK(r.failed.rfind(
            "format=1\nclass=CONTAINER_RUNTIME\ntext=the container runtime's program apptainer is not found on node ",
            0) == 0);
  CHECK(r.failed.find("(PATH=/usr/bin:/bin)\n") != std::string::npos);
  CHECK(!fs::exists(dir.path / "ran"));
  CHECK(read(dir.path / "out").find("sweep: CONTAINER_RUNTIME: the container runtime's program apptainer") == 0);
}

TEST_CASE("container check run: an image that is not there is CONTAINER_IMAGE") {
  INFO("ch-run and busybox-static are installed by scripts/install-deps");
  REQUIRE(have_charliecloud());
  TempDir dir;
  const Ran r = run_check(dir, check(container("charliecloud", (dir.path / "no-image").string(), false)));
  CHECK(r.status == 2);
  CHECK(r.failed.find("class=CONTAINER_IMAGE\ntext=the image " + (dir.path / "no-image").string() +
                      " is not on node ") != std::string::npos);
  CHECK(!fs::exists(dir.path / "ran"));
}

TEST_CASE("container check run: ch-run starts a busybox image: provenance, its environment masked, no GPU") {
  INFO("ch-run and busybox-static are installed by scripts/install-deps");
  REQUIRE(have_charliecloud());
  TempDir dir;
  RenderedContainer c = container("charliecloud", busybox_image(dir), true);
  c.workdir = dir.path.string();
  const std::string id = image_id(dir, c.image);
  const Ran r = run_check(dir, check(c, {SWEEP_IMAGE_ID_BIN, dir.file("ids")}),
                          "export NCCL_IB_KEY=s3cret UCX_TLS=rc OTHER=x; unset USER");
  INFO(read(dir.path / "out"));
  CHECK(read(dir.path / "provenance/container") ==
        "format=1\nruntime=charliecloud\nruntime_version=ch-run 0.31\nimage=" + c.image +
            "\nimage_kind=directory\nimage_id=" + id + "\ngpus=true\n");
  struct stat st {};
  REQUIRE(::stat(dir.file("ids").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  CHECK(read(dir.path / "container_check.log").starts_with("sweep-image-id: content read: "));
  check_masked_env(read(dir.path / "provenance/container_env"));
  if (fs::exists("/dev/nvidiactl")) {  // a machine with an NVIDIA device: ch-run shares /dev, so the check passes
    CHECK(r.status == 0);
    return;
  }
  CHECK(r.status == 1);
  CHECK(r.failed.find("class=CONTAINER_GPU\ntext=gpus: true, but there is no NVIDIA device (/dev/nvidiactl) inside the "
                      "container on node ") != std::string::npos);
  CHECK(!fs::exists(dir.path / "ran"));

  c.gpus = false;
  fs::remove(dir.path / "container_failed");
  const Ran ok = run_check(dir, check(c, {SWEEP_IMAGE_ID_BIN, dir.file("ids")}));
  CHECK(ok.status == 0);
  CHECK(ok.failed.empty());
  CHECK(fs::exists(dir.path / "ran"));
  // The second run's id came from the cache: no content read.
  CHECK(read(dir.path / "container_check.log").starts_with("sweep-image-id: content read: 0 bytes (cache: hit)\n"));
}

TEST_CASE("container check run: a value with line breaks forges no container_env line and no GPU marker") {
  INFO("ch-run and busybox-static are installed by scripts/install-deps");
  REQUIRE(have_charliecloud());
  if (fs::exists("/dev/nvidiactl")) return;  // the marker would be true here: nothing to forge
  TempDir dir;
  RenderedContainer c = container("charliecloud", busybox_image(dir), true);
  c.workdir = dir.path.string();
  // A host variable, which ch-run passes into the container; its lines would read as a variable and
  // the GPU marker if the check trusted env's lines.
  const Ran r = run_check(dir, check(c), "export FOO=$'x\\nsweep-gpu-device\\nNCCL_NET=IB' UCX_TLS=$'rc\\nNCCL_X=1'");
  INFO(read(dir.path / "out"));
  CHECK(r.status == 1);
  CHECK(r.failed.find("class=CONTAINER_GPU\n") != std::string::npos);
  CHECK(!fs::exists(dir.path / "ran"));
  const std::string env = read(dir.path / "provenance/container_env");
  CHECK(env.find("NCCL_NET") == std::string::npos);
  CHECK(env.find("UCX_TLS=rc NCCL_X=1\n") != std::string::npos);  // its line break folded
  CHECK(env.find("\nNCCL_X") == std::string::npos);
  CHECK(env.find("NCCL_DEBUG=INFO\n") != std::string::npos);
}

TEST_CASE("container check run: a ch-image name that ch-run cannot find is CONTAINER_IMAGE, with ch-run's message") {
  INFO("ch-run and busybox-static are installed by scripts/install-deps");
  REQUIRE(have_charliecloud());
  TempDir dir;
  RenderedContainer c = container("charliecloud", "myimg", false);  // not there: a name of ch-image's storage
  c.workdir = dir.path.string();
  const Ran r = run_check(dir, check(c), "export CH_IMAGE_STORAGE=" + dir.file("store"));
  INFO(read(dir.path / "out"));
  CHECK(r.status == 2);
  CHECK(r.failed.find("class=CONTAINER_IMAGE\ntext=charliecloud has no image myimg on node ") != std::string::npos);
  CHECK(r.failed.find("error: can't stat: myimg: No such file or directory") != std::string::npos);  // ch-run 0.31's
  CHECK(!fs::exists(dir.path / "ran"));
}

TEST_CASE("container check run: sweep-image-id's warning and failure are kept, the failure recorded as image_id_error") {
  INFO("ch-run and busybox-static are installed by scripts/install-deps");
  REQUIRE(have_charliecloud());
  TempDir dir;
  RenderedContainer c = container("charliecloud", busybox_image(dir), false);
  c.workdir = dir.path.string();
  // A cache directory sweep-image-id refuses (group-writable): a warning, the id still recorded.
  fs::create_directories(dir.path / "shared");
  fs::permissions(dir.path / "shared", fs::perms::owner_all | fs::perms::group_all);
  const Ran warned = run_check(dir, check(c, {SWEEP_IMAGE_ID_BIN, dir.file("shared")}));
  INFO(read(dir.path / "out"));
  CHECK(warned.status == 0);
  const std::string provenance = read(dir.path / "provenance/container");
  CHECK(provenance.find("\nimage_id=sha256:") != std::string::npos);
  CHECK(provenance.find("image_id_error") == std::string::npos);
  CHECK(read(dir.path / "container_check.log")
            .find("sweep-image-id: warning: not using the cache: refusing the cache directory " + dir.file("shared") +
                  ": it is writable by its group") != std::string::npos);

  // sweep-image-id fails (as on a file it cannot read): the id is empty, the failure recorded, its
  // message still in container_check.log after the container's start, and the workload runs.
  fs::create_directories(dir.path / "bin");
  std::ofstream(dir.file("bin/sweep-image-id"))
      << "#!/bin/sh\n# stands in for a sweep-image-id that cannot read the image\n"
         "echo \"sweep-image-id: cannot open $4/x: Permission denied\" >&2; exit 6\n";
  fs::permissions(dir.file("bin/sweep-image-id"), fs::perms::owner_all);
  fs::remove(dir.path / "ran");
  const Ran failed = run_check(dir, check(c, {dir.file("bin/sweep-image-id"), dir.file("ids")}));
  CHECK(failed.status == 0);
  CHECK(fs::exists(dir.path / "ran"));
  CHECK(read(dir.path / "provenance/container") ==
        "format=1\nruntime=charliecloud\nruntime_version=ch-run 0.31\nimage=" + c.image +
            "\nimage_kind=directory\nimage_id=\ngpus=false\n"
            "image_id_error=sweep-image-id: status 6: sweep-image-id: cannot open " + c.image + "/x: Permission denied\n");
  CHECK(read(dir.path / "container_check.log").find("sweep-image-id: cannot open " + c.image + "/x: Permission denied\n") !=
        std::string::npos);
  CHECK(!fs::exists(dir.path / "image_id.log"));
}

TEST_CASE("container check run: a container that does not start is CONTAINER, with ch-run's message") {
  INFO("ch-run and busybox-static are installed by scripts/install-deps");
  REQUIRE(have_charliecloud());
  TempDir dir;
  RenderedContainer c = container("charliecloud", busybox_image(dir, false), false);  // no /bin/sh in it
  c.workdir = "/";
  const Ran r = run_check(dir, check(c));
  CHECK(r.status != 0);
  CHECK(r.failed.find("class=CONTAINER\ntext=charliecloud did not start the container on node ") != std::string::npos);
  CHECK(r.failed.find("ch-run[") != std::string::npos);  // its own message, from container_check.log
  CHECK(r.failed.find("/bin/sh") != std::string::npos);
  CHECK(!fs::exists(dir.path / "ran"));
}

TEST_CASE("container check run: a name of ch-image's storage is the runtime's to find, a relative path that is there an image") {
  INFO("ch-run and busybox-static are installed by scripts/install-deps");
  REQUIRE(have_charliecloud());
  TempDir dir;
  // ch-image's storage: $CH_IMAGE_STORAGE/img/<name, ':' as '+' and '/' as '%'> (ch-run(1), "Image formats").
  fs::create_directories(dir.path / "store" / "img");
  fs::rename(busybox_image(dir), dir.path / "store" / "img" / "example.com+5050%foo");
  const std::string storage = "export CH_IMAGE_STORAGE=" + (dir.path / "store").string();
  RenderedContainer c = container("charliecloud", "example.com:5050/foo", false);
  c.workdir = dir.path.string();
  const Ran named = run_check(dir, check(c), storage);
  INFO(read(dir.path / "out"));
  CHECK(named.status == 0);
  CHECK(read(dir.path / "provenance/container").find("\nimage=example.com:5050/foo\nimage_kind=reference\nimage_id=\n") !=
        std::string::npos);
  CHECK(fs::exists(dir.path / "ran"));

  fs::remove(dir.path / "ran");
  fs::rename(dir.path / "store" / "img" / "example.com+5050%foo", dir.path / "images-here");
  c.image = "images-here";  // relative to the run directory, where the check runs: a directory image
  const Ran relative = run_check(dir, check(c));
  CHECK(relative.status == 0);
  CHECK(read(dir.path / "provenance/container").find("\nimage_kind=directory\n") != std::string::npos);
  CHECK(fs::exists(dir.path / "ran"));
}
