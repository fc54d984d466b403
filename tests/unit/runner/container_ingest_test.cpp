// A container that is missing on a node other than the first (runner/container_messages.h): the check
// passed on node 1, the workload's step failed elsewhere, and ingest reads the class from its stderr.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "runner/container_messages.h"
#include "runner/ingest.h"
#include "temp_dir.h"

using namespace sweep;

namespace {

exec::Outcome exited(int code) { return exec::Outcome{"1", code, 0, false, 0.5}; }

/// ingest of a run directory whose check passed for `runtime` (its provenance/container) and whose
/// workload exited with 2, writing `stderr`; `with_provenance` false: a run without a container.
store::AttemptResult ingested(const TempDir& dir, const std::string& stderr_text, bool with_provenance = true) {
  std::filesystem::create_directories(dir.path / "provenance");
  if (with_provenance)
    std::ofstream(dir.file("provenance/container"))
        << "format=1\nruntime=charliecloud\nruntime_version=ch-run 0.31\nimage=/local/img\nimage_kind=directory\n"
           "image_id=sha256:12ab\ngpus=false\n";
  std::ofstream(dir.file("container_check.log")) << "sweep-image-id: content read: 0 bytes (cache: hit)\n";
  std::ofstream(dir.file("stdout")) << "";
  std::ofstream(dir.file("stderr")) << stderr_text;
  return runner::ingest(exited(2), dir.path.string(), parse::Extractor({}), spec::Success{}, false, false);
}

}  // namespace

TEST_CASE("container on another node: ch-run missing on node 2 under srun is CONTAINER_RUNTIME, naming n2") {
  TempDir dir;
  // slurmstepd's and srun's own lines (the text of slurmstepd's execve() error and of srun's task line).
  const auto r = ingested(dir,
                          "slurmstepd: error: execve(): ch-run: No such file or directory\n"
                          "srun: error: n2: task 2: Exited with exit code 2\n");
  CHECK(r.failure_class == "container_runtime");
  CHECK(r.failure_reason.rfind("the container runtime's program ch-run is not found on node n2 (the container check "
                               "passed on the job's first node): slurmstepd: error: execve(): ch-run: No such file or "
                               "directory; exited with code 2 (expected 0)\n--- last 2 lines of stderr ---\n",
                               0) == 0);
  CHECK(r.exit_code == std::optional<int>(2));
}

TEST_CASE("container on another node: an image not on node 2 is CONTAINER_IMAGE with ch-run's message") {
  TempDir dir;
  // ch-run 0.31's message (run here: ch-run /local/img on a machine without it), then srun's task line.
  const auto r = ingested(dir,
                          "ch-run[4242]: error: can't stat: /local/img: No such file or directory (ch_core.c:255 2)\n"
                          "srun: error: n2: task 3: Exited with exit code 1\n");
  CHECK(r.failure_class == "container_image");
  CHECK(r.failure_reason.rfind("the container image of charliecloud is not there on node n2 (the container check "
                               "passed on the job's first node): ch-run[4242]: error: can't stat: /local/img",
                               0) == 0);
}

TEST_CASE("container on another node: mpirun's missing executable names its node, and a crash stays exit_code") {
  TempDir dir;
  // Open MPI 4.1.4's mpirun (run here with a program that is not on PATH), the node renamed n2.
  const auto r = ingested(dir,
                          "mpirun was unable to find the specified executable file, and therefore\n"
                          "did not launch the job.\n\nNode:       n2\nExecutable: ch-run\n");
  CHECK(r.failure_class == "container_runtime");
  CHECK(r.failure_reason.rfind("the container runtime's program ch-run is not found on node n2 ", 0) == 0);
  // The workload's own failure inside the container, and a run without a container: not reclassified.
  CHECK(ingested(dir, "python: can't open file 'x.py': [Errno 2] No such file or directory\n").failure_class ==
        "exit_code");
  TempDir plain;
  CHECK(ingested(plain, "slurmstepd: error: execve(): ch-run: No such file or directory\n", false).failure_class ==
        "exit_code");
}

TEST_CASE("container messages: the real ch-run's message for an image it cannot find is image-missing") {
  INFO("ch-run is installed by scripts/install-deps");
  REQUIRE(std::system("command -v ch-run > /dev/null") == 0);
  TempDir dir;
  const std::string cmd =
      "USER=${USER:-$(id -un)} ch-run " + dir.file("nothere") + " -- /bin/true 2> " + dir.file("err");
  CHECK(std::system(cmd.c_str()) != 0);
  std::ifstream in(dir.file("err"));
  std::stringstream text;
  text << in.rdbuf();
  INFO(text.str());
  const auto found = runner::container_failure_in("charliecloud", text.str());
  REQUIRE(found);
  CHECK(found->failure_class == "container_image");
  CHECK(found->node.empty());
  CHECK(!runner::container_failure_in("charliecloud", "ch-run[1]: error: can't execve(2): /bin/sh\n"));
  CHECK(runner::container_failure_in("apptainer", "bash: line 3: apptainer: command not found\n")->failure_class ==
        "container_runtime");
  CHECK(runner::runtime_missing_ere("ch-run") ==
        "execve\\(\\): ch-run: No such file or directory|^Executable: +ch-run$|: ch-run: command not found$");
}

TEST_CASE("container messages: an endless line is cut before matching, an early launch error still found") {
  // A line of 1 MB after ch-run's words: std::regex took it character by character in one `.*` and
  // overflowed the stack (100 KB was enough here) before the line was cut.
  const std::string endless = "ch-run[1]: error: can't stat: " + std::string(1 << 20, 'a') + "\n";
  CHECK_FALSE(runner::container_failure_in("charliecloud", endless));
  const auto found = runner::container_failure_in(
      "charliecloud", endless + "ch-run[7]: error: can't stat: /img: No such file or directory (ch_core.c:255 2)\n");
  REQUIRE(found);
  CHECK(found->failure_class == "container_image");
  // slurmstepd's launch error comes first; node 1's tasks go on writing (NCCL's INFO lines) before srun
  // names the node: the error is found however much follows it, and the node from the line after it.
  std::string nccl;
  for (int i = 0; i < 5000; ++i) nccl += "n1:4242:4242 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] via P2P/IPC\n";
  const auto early = runner::container_failure_in(
      "charliecloud", "srun: error: n1: task 0: Exited with exit code 1\n"
                      "slurmstepd: error: execve(): ch-run: No such file or directory\n" +
                          nccl + "srun: error: n2: task 1: Exited with exit code 2\n");
  REQUIRE(early);
  CHECK(early->failure_class == "container_runtime");
  CHECK(early->node == "n2");
}
