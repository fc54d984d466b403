// collbench as a bundled workload of a sweep campaign: no regex, metrics stored per size.
#include <catch2/catch.hpp>

#include "e2e/harness.h"

using e2e::scalar;

TEST_CASE("a campaign of bundled collbench runs stores typed metrics without a regex") {
  e2e::Sandbox box;
  box.write("cb.yaml", R"(name: cb
matrix:
  backend: [mpi, gloo]
  op: [allreduce, allgather]
workload:
  bundled: collbench
  launcher: mpirun
  args:
    backend: "{{backend}}"
    op: "{{op}}"
    min-bytes: 64K
    max-bytes: 256K
    iters: 3
    inplace: true
)");
  const auto r = box.sweep({"run", "cb.yaml", "--label", "cb", "-j", "1"});
  INFO("stderr:\n" << r.err << "stdout:\n" << r.out);
  REQUIRE(r.exit_code == 0);
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == 4);
  // 64K, 128K and 256K: three sizes per run, each with its own index.
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'busbw' AND unit = 'GB/s' AND better = 'higher' AND value > 0") == 12);
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'size_bytes' AND idx = 2 AND value = 262144") == 4);
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'wrong_total' AND value = 0") == 4);
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'busbw_inplace'") == 12);
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'busbw_peak' AND value > 0") == 4);
}

TEST_CASE("a bundled program that is not built is an error at the workload, before anything runs") {
  e2e::Sandbox box;
  box.write("cb.yaml", "name: cb\nmatrix:\n  n: [1]\nworkload:\n  bundled: collbench\n");
  const auto r = e2e::shell("cd " + box.dir().string() + " && SWEEP_BUNDLED_DIR=/nonexistent " + SWEEP_BIN +
                            " run cb.yaml --label x");
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("cb.yaml:5:3: bundled program \"collbench\" is not built: /nonexistent/collbench"));
  CHECK_FALSE(std::filesystem::exists(box.path("results/x")));
}
