// Real Charliecloud runs on both nodes of the development cluster (docs/containers.md, "Charliecloud,
// tested here"): the bundled collbench inside ch-run over gloo and over mpi, in srun's tasks (PMIx) and in
// mpirun's, each rank of both nodes in the image that tests/support/make-charliecloud-image builds.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "e2e/charliecloud_image.h"
#include "slurm/slurm_harness.h"

using namespace slurmtest;

namespace {

/// The run directory of the point whose parameter `name` is `value`.
std::string run_dir_of(const e2e::Sandbox& box, const std::string& name, const std::string& value) {
  return query(box, "SELECT r.run_dir FROM runs r JOIN point_params p ON p.point_id = r.point_id WHERE p.name = '" + name +
                        "' AND p.value = '" + value + "'");
}

/// Every point's ranks: 4, 2 on each node, and exact; the container's provenance recorded for each run.
void check_ranks_and_provenance(const e2e::Sandbox& box, const std::string& image, const std::string& from) {
  CHECK(query(box, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == "2");
  CHECK(query(box, "SELECT count(*) FROM metrics WHERE name = 'wrong_total' AND value = 0") == "2");
  for (const std::string backend : {"gloo", "mpi"}) {
    const std::string dir = run_dir_of(box, "backend", backend);
    const std::string out = e2e::read_file(dir + "/stdout");
    INFO(backend << "\n" << out << e2e::read_file(dir + "/stderr"));
    CHECK_THAT(out, Catch::Contains("ranks 4 (from " + from + ")"));
    CHECK_THAT(out, Catch::Contains("#  Rank   0 on n1") && Catch::Contains("#  Rank   1 on n1") &&
                        Catch::Contains("#  Rank   2 on n2") && Catch::Contains("#  Rank   3 on n2"));
    CHECK_THAT(out, Catch::Contains("# Out of bounds values : 0 OK"));
  }
  const auto each = [&](const std::string& key) {
    return rows_of(box, "SELECT DISTINCT value FROM run_provenance WHERE key = '" + key + "'");
  };
  CHECK(query(box, "SELECT count(*) FROM run_provenance WHERE key = 'container.runtime' AND value = 'charliecloud'") == "2");
  CHECK_THAT(query(box, "SELECT value FROM run_provenance WHERE key = 'container.runtime_version'"), Catch::Contains("0.31"));
  CHECK(each("container.image") == std::vector<std::vector<std::string>>{{image}});
  const auto ids = each("container.image_id");
  REQUIRE(ids.size() == 1);
  CHECK_THAT(ids[0][0], Catch::Matches("sha256:[0-9a-f]{64}"));
  if (const std::string expected = e2e::image_id_of(image); !expected.empty()) CHECK(ids[0][0] == expected);
  CHECK_THAT(query(box, "SELECT value FROM run_provenance WHERE key = 'job.container_env'"), Catch::Contains("OMPI_"));
  // Each rank's loader wrote its log through /mnt/proof, a path only the container has.
  int logs = 0;
  for (const auto& e : std::filesystem::directory_iterator(box.path("proof"))) logs += e.path().filename().string().rfind("ld.", 0) == 0;
  CHECK(logs >= 8);  // 4 ranks of each backend
}

/// The experiment: collbench over gloo and mpi, 2 nodes with 2 tasks each, under `launcher`, in the
/// image with the cluster's state directory bound in (srun's PMIx: see docs/containers.md).
std::string experiment(const e2e::Sandbox& box, const std::string& image, const std::string& launcher) {
  return R"(name: chc
executor: slurm
matrix:
  backend: [gloo, mpi]
telemetry: false
resources: {nodes: 2, ntasks-per-node: 2, time: 5}
env: {OMPI_MCA_hwloc_base_binding_policy: none}  # mpirun's gloo ranks: not bound to one core (docs/collbench.md)
container:
  runtime: charliecloud
  image: )" + image + R"(
  mounts: [")" + state_dir() + R"(", ")" + box.path("proof") + R"(:/mnt/proof"]
  env:
    LD_DEBUG: libs
    LD_DEBUG_OUTPUT: /mnt/proof/ld
    OMPI_MCA_btl_vader_single_copy_mechanism: none
workload:
  bundled: collbench
  launcher: )" + launcher + (launcher == "srun" ? "\n  mpi: pmix" : "") + R"(
  args: {backend: "{{backend}}", min-bytes: 1K, max-bytes: 64K, factor: 8, iters: 3}
)";
}

/// Runs the experiment under `launcher` and checks it; `from` is where collbench's ranks come from.
void run_and_check(const std::string& launcher, const std::string& from) {
  slurm_conf();
  ::unsetenv("USER");  // ch-run as root refuses to start without it: the job script must set it
  e2e::Sandbox box;
  const std::string image = e2e::charliecloud_image({state_dir(), "/mnt/proof"});
  std::filesystem::create_directories(box.path("proof"));
  box.write("chc.yaml", experiment(box, image, launcher));
  const auto r = box.sweep({"run", "chc.yaml", "--label", unique_label(box, "ch" + launcher), "--poll-max", "1"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  check_ranks_and_provenance(box, image, from);
}

}  // namespace

TEST_CASE("collbench over gloo and mpi inside ch-run, in srun's PMIx tasks on both nodes", "[container]") {
  run_and_check("srun", "slurm");
}

TEST_CASE("collbench over gloo and mpi inside ch-run, in mpirun's tasks on both nodes", "[container]") {
  run_and_check("mpirun", "openmpi");
}
