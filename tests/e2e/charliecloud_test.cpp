// Real Charliecloud runs through the local executor (docs/containers.md, "Charliecloud, tested here"):
// ch-run 0.31 with a directory image that tests/support/make-charliecloud-image builds from this machine's
// files. A command and the bundled collbench (gloo, and mpi under mpirun) run inside it; the container's
// provenance is recorded; a missing image and GPUs asked of a machine without them fail with their class.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include <SQLiteCpp/Statement.h>

#include "e2e/charliecloud_image.h"
#include "e2e/harness.h"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

/// The single value of `sql` on the sandbox's database ("" when no row).
std::string value_of(const Sandbox& box, const std::string& sql) {
  auto db = box.db();
  SQLite::Statement q(db, sql);
  return q.executeStep() ? q.getColumn(0).getString() : "";
}

std::string provenance(const Sandbox& box, const std::string& key) {
  return value_of(box, "SELECT value FROM run_provenance WHERE key = '" + key + "'");
}

/// The provenance keys docs/containers.md names, for a run in `image`.
void check_container_provenance(const Sandbox& box, const std::string& image) {
  CHECK(provenance(box, "container.runtime") == "charliecloud");
  CHECK_THAT(provenance(box, "container.runtime_version"), Catch::Contains("0.31"));
  CHECK(provenance(box, "container.image") == image);
  CHECK(provenance(box, "container.image_kind") == "directory");
  CHECK(provenance(box, "container.gpus") == "false");
  const std::string id = provenance(box, "container.image_id");
  CHECK_THAT(id, Catch::Matches("sha256:[0-9a-f]{64}"));
  if (const std::string expected = image_id_of(image); !expected.empty()) CHECK(id == expected);
}

const char* kMarkerText = "built by tests/support/make-charliecloud-image";

/// ch-run as root refuses to start without USER: the job script must set it, so the tests run sweep without.
void without_user() { ::unsetenv("USER"); }

}  // namespace

TEST_CASE("a command runs inside a Charliecloud directory image: its metric, the image's own file, the provenance",
          "[container]") {
  without_user();
  Sandbox box;
  const std::string image = charliecloud_image({});
  REQUIRE_FALSE(fs::exists(kCharliecloudMarker));  // the marker is the image's alone
  box.write("ch.yaml", "name: ch\nmatrix: {n: [7]}\ntelemetry: false\n"
                       "container: {runtime: charliecloud, image: '" + image + "', env: {NCCL_DEBUG: INFO, MARK: '$HOME/x:y'}}\n"
                       // One program, sh: the container's words go before the command's first program only.
                       "workload: {command: \"sh -c 'cat /etc/charliecloud-test-image && echo value: {{n}} && "
                       "echo inside: $CH_RUNNING && echo mark: $MARK && pwd'\"}\n"
                       "metrics: [{name: value, better: higher, regex: 'value: (?<value>\\d+)'}]\n");
  const auto r = box.sweep({"run", "ch.yaml", "--label", "ch"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string dir = value_of(box, "SELECT run_dir FROM runs");
  const std::string out = read_file(dir + "/stdout");
  INFO(out << read_file(dir + "/stderr"));
  CHECK_THAT(out, Catch::Contains(kMarkerText));
  CHECK_THAT(out, Catch::Contains("inside: Weird Al Yankovic"));  // ch-run's CH_RUNNING
  CHECK_THAT(out, Catch::Contains("mark: $HOME/x:y\n"));  // container.env as written, not expanded by ch-run
  // ch-run starts in / unless told: the run's working directory (the experiment's, by default) is kept.
  CHECK_THAT(out, Catch::Contains("\n" + fs::canonical(box.dir()).string() + "\n"));
  CHECK(value_of(box, "SELECT value FROM metrics WHERE name = 'value'") == "7.0");
  check_container_provenance(box, image);
  // The environment inside the container: container.env arrives there, the job's Open MPI settings too.
  const std::string env = provenance(box, "job.container_env");
  CHECK_THAT(env, Catch::Contains("NCCL_DEBUG=INFO") && Catch::Contains("OMPI_MCA_orte_tmpdir_base="));
}

namespace {

/// The experiment of the collbench test: gloo with 1 rank and mpi with 2 ranks under mpirun, in `image`,
/// with `proof` bound at /mnt/proof (the loader's logs and gloo's rendezvous go there) and the ASan
/// suppressions' directory bound at its path.
std::string collbench_experiment(const Sandbox& box, const std::string& image, const std::string& suppressions) {
  return R"(name: cb
matrix:
  backend: [gloo, mpi]
telemetry: false
env:
  OMPI_MCA_orte_default_hostfile: )" + box.path("hosts") + R"(
container:
  runtime: charliecloud
  image: )" + image + R"(
  mounts: [")" + box.path("proof") + R"(:/mnt/proof", ")" + suppressions + R"("]
  env:
    LSAN_OPTIONS: "suppressions=)" + suppressions + R"(/openmpi.supp:fast_unwind_on_malloc=0:print_suppressions=0"
    LD_DEBUG: libs
    LD_DEBUG_OUTPUT: "/mnt/proof/ld-{{backend}}"
    OMPI_MCA_btl_vader_single_copy_mechanism: none
workload:
  - when: "backend == 'mpi'"
    bundled: collbench
    launcher: mpirun
    args: {backend: mpi, min-bytes: 1K, max-bytes: 64K, factor: 8, iters: 3}
  - bundled: collbench
    args: {backend: gloo, min-bytes: 1K, max-bytes: 64K, factor: 8, iters: 3, rendezvous: /mnt/proof}
)";
}

/// The loader inside the container wrote its log through /mnt/proof (`proof`): the ranks ran in the
/// image, and loaded MPI and gloo from it; gloo's rendezvous is there too.
void check_loader_logs(const std::string& proof) {
  std::string loader_logs;
  for (const auto& e : fs::directory_iterator(proof))
    if (e.path().filename().string().rfind("ld-", 0) == 0) loader_logs += read_file(e.path().string());
  CHECK_THAT(loader_logs, Catch::Contains("libmpi.so.40") && Catch::Contains("libgloo.so"));
  CHECK(fs::exists(proof + "/.comm-rendezvous"));  // gloo's rendezvous, at /mnt/proof inside
  const auto files = [&](const std::string& prefix) {
    int n = 0;
    for (const auto& e : fs::directory_iterator(proof)) n += e.path().filename().string().rfind(prefix, 0) == 0;
    return n;
  };
  CHECK(files("ld-gloo.") >= 1);
  CHECK(files("ld-mpi.") >= 2);  // both ranks
}

}  // namespace

TEST_CASE("the bundled collbench runs inside the image: gloo with 1 rank, mpi with 2 ranks under mpirun", "[container]") {
  without_user();
  Sandbox box;
  // A host directory bound at another path inside: only a process in the container writes through /mnt/proof.
  // Under ASan, Open MPI's own leaks are suppressed as in the workload tests: its file is bound in.
  const std::string suppressions = std::string(SWEEP_SOURCE_DIR) + "/tests/workloads";
  const std::string image = charliecloud_image({"/mnt/proof", suppressions});
  fs::create_directories(box.path("proof"));
  box.write("hosts", "localhost slots=2\n");
  box.write("cb.yaml", collbench_experiment(box, image, suppressions));
  const auto r = box.sweep({"run", "cb.yaml", "--label", "cb"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(value_of(box, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == "2");
  CHECK(value_of(box, "SELECT count(*) FROM metrics WHERE name = 'wrong_total' AND value = 0") == "2");
  CHECK(value_of(box, "SELECT count(*) FROM metrics WHERE name = 'busbw'") == "6");  // 1K, 8K, 64K each
  for (const auto& [backend, ranks] : {std::pair{"gloo", "ranks 1 (from none)"}, {"mpi", "ranks 2 (from openmpi)"}}) {
    const std::string dir = value_of(box, std::string("SELECT r.run_dir FROM runs r JOIN point_params p ON p.point_id = "
                                                      "r.point_id WHERE p.name = 'backend' AND p.value = '") + backend + "'");
    const std::string out = read_file(dir + "/stdout");
    INFO(backend << "\n" << out << read_file(dir + "/stderr"));
    CHECK_THAT(out, Catch::Contains(ranks) && Catch::Contains("# Out of bounds values : 0 OK"));
    CHECK_THAT(read_file(dir + "/stderr"), !Catch::Contains("btl_vader_single_copy_mechanism"));
  }
  check_loader_logs(box.path("proof"));
  check_container_provenance(box, image);
}

TEST_CASE("a missing image fails the run as container_image, with ch-run's message, and the workload does not run",
          "[container]") {
  Sandbox box;
  box.write("gone.yaml", "name: gone\nmatrix: {n: [1]}\ntelemetry: false\n"
                         "container: {runtime: charliecloud, image: '" + box.path("no-such-image") + "'}\n"
                         "workload: {command: \"sh -c 'touch " + box.path("workload-ran") + " && echo value: 1'\"}\n");
  const auto r = box.sweep({"run", "gone.yaml", "--label", "gone"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(value_of(box, "SELECT failure_class FROM runs") == "container_image");
  CHECK_THAT(value_of(box, "SELECT failure_reason FROM runs"), Catch::Contains(box.path("no-such-image")));
  CHECK_FALSE(fs::exists(box.path("workload-ran")));
}

TEST_CASE("gpus: true on a machine whose container has no NVIDIA device fails as container_gpu", "[container]") {
  if (fs::exists("/dev/nvidiactl")) {
    WARN("this machine has an NVIDIA device: a container without one cannot be made here");
    return;
  }
  Sandbox box;
  const std::string image = charliecloud_image({});
  box.write("gpu.yaml", "name: gpu\nmatrix: {n: [1]}\ntelemetry: false\n"
                        "container: {runtime: charliecloud, image: '" + image + "', gpus: true}\n"
                        "workload: {command: \"sh -c 'touch " + box.path("workload-ran") + " && echo value: 1'\"}\n");
  const auto r = box.sweep({"run", "gpu.yaml", "--label", "gpu"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(value_of(box, "SELECT failure_class FROM runs") == "container_gpu");
  CHECK_THAT(value_of(box, "SELECT failure_reason FROM runs"), Catch::Contains("NVIDIA"));
  CHECK_FALSE(fs::exists(box.path("workload-ran")));
}
