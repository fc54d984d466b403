// Podman for real on the local executor (docs/containers.md, "Podman on this machine"): an image imported
// from a busybox-static tarball by tests/support/podman-sandbox, configured only through the files that
// script writes (CONTAINERS_CONF, CONTAINERS_STORAGE_CONF in the experiment's env), no registry. The
// workload prints a metric from inside the container; a missing image fails as CONTAINER_IMAGE, GPUs
// podman cannot give (no CDI specification here) as CONTAINER_GPU.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <sstream>
#include <string>

#include <SQLiteCpp/Statement.h>

#include "e2e/harness.h"

using namespace e2e;

namespace {

/// podman-sandbox's `key=value` lines for a podman store under the sandbox.
std::map<std::string, std::string> podman_sandbox(const Sandbox& box) {
  const auto made = shell("'" + repo_file("tests/support/podman-sandbox") + "' '" + box.path("podman") + "'");
  INFO("tests/support/podman-sandbox needs podman, runc and busybox-static (scripts/install-deps)\n"
       << made.out << made.err);
  REQUIRE(made.exit_code == 0);
  std::map<std::string, std::string> out;
  std::istringstream lines(made.out);
  for (std::string line; std::getline(lines, line);) {
    const auto eq = line.find('=');
    if (eq != std::string::npos) out[line.substr(0, eq)] = line.substr(eq + 1);
  }
  REQUIRE(out.count("image_id") == 1);
  return out;
}

/// An experiment of points n = 1, 2 in `image` under podman. The container runs the command's first
/// simple command (as a launcher does: the job shell expands its words), so the workload is one
/// `sh -c '...'` that the image's shell runs: it prints the image's marker file and GREETING (the
/// container's env), and the metric `speed` = 1000·n + the marker file's size (14 bytes), which only
/// the image has; then the value file of `data_dir` (mounted read-only at /data), FROM_ARGS (set by the
/// container's `args`) and whether /data took a write.
std::string podman_experiment(const std::map<std::string, std::string>& podman, const std::string& image,
                              const std::string& data_dir, const std::string& gpus = "false") {
  return R"(name: podman
telemetry: false
matrix:
  n: [1, 2]
env:
  CONTAINERS_CONF: ")" + podman.at("CONTAINERS_CONF") + R"("
  CONTAINERS_STORAGE_CONF: ")" + podman.at("CONTAINERS_STORAGE_CONF") + R"("
container:
  runtime: podman
  image: ")" + image + R"("
  gpus: )" + gpus + R"(
  env: {GREETING: "hello {{n}}", NCCL_DEBUG: INFO, NCCL_IB_HCA: "mlx5_{{n}}"}
  mounts: [")" + data_dir + R"(:/data:ro"]
  args: ["--env=FROM_ARGS=yes"]
workload:
  command: >-
    sh -c 'echo "image $(cat /etc/sweep-image) says $GREETING";
    echo "{\"v\": 1, \"metric\": \"speed\", \"value\": $(( {{n}} * 1000 + $(wc -c < /etc/sweep-image) )),
    \"unit\": \"it/s\", \"better\": \"higher\"}";
    echo "data $(cat /data/value) $FROM_ARGS"; touch /data/written 2> /dev/null || echo "data read-only"'
)";
}

/// `column` of each run, or its latest attempt's provenance `key` when column is empty, keyed by n.
std::map<std::string, std::string> per_point(const Sandbox& box, const std::string& column, const std::string& key = "") {
  const std::string value = key.empty() ? "r." + column
                                        : "(SELECT v.value FROM run_provenance v WHERE v.run_id = r.id AND "
                                          "v.attempt = r.attempt AND v.key = '" + key + "')";
  auto db = box.db();
  SQLite::Statement q(db, "SELECT COALESCE(" + value + ", '<none>'), p.value FROM runs r JOIN point_params p ON "
                          "p.campaign_id = r.campaign_id AND p.point_id = r.point_id AND p.name = 'n'");
  std::map<std::string, std::string> out;
  while (q.executeStep()) out[q.getColumn(1).getString()] = q.getColumn(0).getString();
  return out;
}

/// The first line `podman --version` prints ("podman version 4.3.1"), as the check records it.
std::string podman_version() {
  const auto v = shell("podman --version");
  REQUIRE(v.exit_code == 0);
  return v.out.substr(0, v.out.find('\n'));
}

}  // namespace

TEST_CASE("podman runs the workload inside an imported image and records the image's id") {
  Sandbox box;
  const auto podman = podman_sandbox(box);
  box.write("data/value", "42\n");
  const auto run = box.sweep({"run", box.write("podman.yaml", podman_experiment(podman, podman.at("image"), box.path("data"))),
                              "--label", "podman"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto dirs = per_point(box, "run_dir");
  REQUIRE(dirs.size() == 2);
  for (const std::string n : {"1", "2"}) {
    const std::string out = read_file(dirs.at(n) + "/stdout");
    CHECK_THAT(out, Catch::StartsWith("image sweep-busybox says hello " + n + "\n"));
    CHECK_THAT(out, Catch::EndsWith("\ndata 42 yes\ndata read-only\n"));  // the mount, read-only; the args
  }
  CHECK_FALSE(std::filesystem::exists(box.path("data/written")));
  auto db = box.db();
  CHECK(scalar(db, "SELECT COUNT(*) FROM metrics m JOIN runs r ON r.id = m.run_id WHERE m.name = 'speed'") == 2);
  CHECK(scalar(db, "SELECT CAST(SUM(m.value) AS INTEGER) FROM metrics m WHERE m.name = 'speed'") == 1014 + 2014);
  // The check's start of the container read its environment: the container's env, and the job's
  // OMPI_ variables that podman's -e 'OMPI_*' passed in.
  CHECK_THAT(per_point(box, "", "job.container_env").at("2"),
             Catch::StartsWith("NCCL_DEBUG=INFO\nNCCL_IB_HCA=mlx5_2\nOMPI_MCA_orte_tmpdir_base=/"));
  for (const auto& [key, want] : std::map<std::string, std::string>{
           {"container.runtime", "podman"},
           {"container.runtime_version", podman_version()},
           {"container.image", podman.at("image")},
           {"container.image_kind", "podman"},
           {"container.image_id", podman.at("image_id")},
           {"container.gpus", "false"}}) {
    INFO(key);
    const auto got = per_point(box, "", key);
    CHECK(got.at("1") == want);
    CHECK(got.at("2") == want);
  }
}

TEST_CASE("a podman image not in storage fails the run as CONTAINER_IMAGE and no workload runs") {
  Sandbox box;
  const auto podman = podman_sandbox(box);
  const auto run = box.sweep({"run", box.write("missing.yaml", podman_experiment(podman, "localhost/sweep-missing:1", box.path("data"))),
                              "--label", "missing"});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.out, Catch::Contains("2 runs planned, 0 succeeded, 2 failed"));
  const auto outcome = per_point(box, "state || ' ' || r.failure_class");
  CHECK(outcome.at("1") == "failed container_image");
  CHECK(outcome.at("2") == "failed container_image");
  const auto dirs = per_point(box, "run_dir");
  CHECK_THAT(read_file(dirs.at("1") + "/container_failed"),
             Catch::StartsWith("format=1\nclass=CONTAINER_IMAGE\n") && Catch::Contains("sweep-missing"));
  CHECK(read_file(dirs.at("1") + "/stdout").find("says") == std::string::npos);
}

TEST_CASE("podman that cannot give the GPUs asked for fails the run as CONTAINER_GPU with podman's message") {
  // No CDI specification on this machine: podman 4.3 refuses --device nvidia.com/gpu=all itself.
  Sandbox box;
  const auto podman = podman_sandbox(box);
  box.write("data/value", "42\n");
  const auto run = box.sweep({"run", box.write("gpu.yaml", podman_experiment(podman, podman.at("image"), box.path("data"), "true")),
                              "--label", "gpu"});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 1);
  CHECK(per_point(box, "state || ' ' || r.failure_class").at("1") == "failed container_gpu");
  const auto dirs = per_point(box, "run_dir");
  CHECK_THAT(read_file(dirs.at("1") + "/container_failed"),
             Catch::StartsWith("format=1\nclass=CONTAINER_GPU\ntext=gpus: true, but podman could not give the container "
                               "the GPUs on node ") &&
                 Catch::Contains("unresolvable CDI devices nvidia.com/gpu=all") && Catch::Contains("nvidia-ctk cdi generate"));
  CHECK(per_point(box, "", "container.gpus").at("1") == "true");
  CHECK(read_file(dirs.at("1") + "/stdout").empty());
}

TEST_CASE("podman runs a two-rank MPI program under mpirun: the session directory bound, the host's pids") {
  INFO("Open MPI (mpicc, mpirun) from the host, copied into the image by tests/support/make-charliecloud-image --mpi");
  REQUIRE(shell("command -v mpicc && command -v mpirun").exit_code == 0);
  Sandbox box;
  const auto podman = podman_sandbox(box);
  // Rank 0 prints the sum of every rank's rank+1 as the metric: 3 when both ranks reached each other
  // (over Open MPI's shared-memory transport, which crashed with each rank pid 1 in its own namespace).
  box.write("allreduce.c", R"(#include <mpi.h>
#include <stdio.h>
int main(int argc, char** argv) {
  int rank, size, mine, sum = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mine = rank + 1;
  MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("{\"v\": 1, \"metric\": \"sum\", \"value\": %d, \"unit\": \"1\", \"better\": \"higher\"}\n", sum);
  MPI_Finalize();
  return 0;
}
)");
  const auto built = shell("cd '" + box.path("") + "' && mpicc -o allreduce allreduce.c && '" +
                           repo_file("tests/support/make-charliecloud-image") + "' --mpi --libs-of allreduce '" +
                           box.path("rootfs") + "' && tar -C rootfs -cf rootfs.tar . && CONTAINERS_CONF='" +
                           podman.at("CONTAINERS_CONF") + "' CONTAINERS_STORAGE_CONF='" +
                           podman.at("CONTAINERS_STORAGE_CONF") + "' podman import rootfs.tar localhost/sweep-mpi:test");
  INFO(built.out << built.err);
  REQUIRE(built.exit_code == 0);
  box.write("hosts", "localhost slots=2\n");
  box.write("mpi.yaml", R"(name: mpi
telemetry: false
matrix:
  n: [1]
env:
  CONTAINERS_CONF: ")" + podman.at("CONTAINERS_CONF") + R"("
  CONTAINERS_STORAGE_CONF: ")" + podman.at("CONTAINERS_STORAGE_CONF") + R"("
  OMPI_MCA_orte_default_hostfile: ")" + box.path("hosts") + R"("
container:
  runtime: podman
  image: localhost/sweep-mpi:test
  gpus: false
workload:
  command: ")" + box.path("allreduce") + R"("
  launcher: mpirun
)");
  const auto r = box.sweep({"run", "mpi.yaml", "--label", "mpi"});
  const std::string dir = per_point(box, "run_dir").at("1");
  INFO(r.out << r.err << read_file(dir + "/stdout") << read_file(dir + "/stderr"));
  REQUIRE(r.exit_code == 0);
  CHECK(per_point(box, "state").at("1") == "succeeded");
  auto db = box.db();
  CHECK(db.execAndGet("SELECT value FROM metrics WHERE name = 'sum'").getDouble() == 3);
  CHECK_THAT(read_file(dir + "/stderr"), !Catch::Contains("PMIX ERROR") && !Catch::Contains("Segmentation fault"));
}
