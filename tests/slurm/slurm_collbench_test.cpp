// collbench as a bundled workload on the development cluster: srun across both emulated nodes, the
// mpi backend through PMIx and the gloo backend through the shared run directory.
#include <catch2/catch.hpp>

#include "slurm/slurm_harness.h"

using namespace slurmtest;

TEST_CASE("collbench runs across both nodes with 2 and 4 ranks on the mpi and gloo backends, exactly") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "cb");
  box.write("cb.yaml", R"(name: cb
executor: slurm
matrix:
  backend: [mpi, gloo]
  per_node: [1, 2]
  op: [allreduce, alltoall]
resources: {nodes: 2, ntasks-per-node: "{{per_node}}", time: 5}
workload:
  bundled: collbench
  launcher: srun
  mpi: pmix
  args: {backend: "{{backend}}", op: "{{op}}", dtype: bf16, min-bytes: 1K, max-bytes: 1M, factor: 32, iters: 3, inplace: true}
)");
  const auto r = box.sweep({"run", "cb.yaml", "--label", L, "--poll-max", "1"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(query(box, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == "8");
  CHECK(query(box, "SELECT count(*) FROM metrics WHERE name = 'wrong_total' AND value = 0") == "8");
  CHECK(query(box, "SELECT count(*) FROM metrics WHERE name = 'busbw' AND value > 0") == "24");  // 1K, 32K, 1M
  for (const std::string backend : {"mpi", "gloo"}) {
    const std::string dir = query(box, "SELECT r.run_dir FROM runs r JOIN point_params p ON p.point_id = r.point_id "
                                       "JOIN point_params q ON q.point_id = r.point_id JOIN point_params o ON o.point_id = r.point_id "
                                       "WHERE p.name = 'backend' AND p.value = '" + backend + "' AND q.name = 'per_node' AND "
                                       "q.value = '2' AND o.name = 'op' AND o.value = 'allreduce'");
    const std::string out = e2e::read_file(dir + "/stdout");
    INFO(backend << "\n" << out);
    CHECK_THAT(out, Catch::Contains("ranks 4 (from slurm)"));
    CHECK_THAT(out, Catch::Contains("#  Rank   0 on n1") && Catch::Contains("#  Rank   3 on n2"));
    CHECK_THAT(out, Catch::Contains("# Out of bounds values : 0 OK"));
  }
}
