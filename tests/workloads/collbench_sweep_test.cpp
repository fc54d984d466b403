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

TEST_CASE("success.where over collbench's per-size metrics: held at every size, or failed with the first size that breaks it") {
  e2e::Sandbox box;
  const auto experiment = [&](const std::string& where) {
    return box.write("cb.yaml", R"(name: cb
matrix:
  backend: [gloo]
workload:
  bundled: collbench
  launcher: mpirun
  args:
    backend: "{{backend}}"
    op: allreduce
    min-bytes: 64K
    max-bytes: 256K
    iters: 2
success:
  where: ")" + where + "\"\n");
  };
  const auto passing = box.sweep({"run", experiment("wrong == 0 && busbw > 0"), "--label", "ok", "-j", "1"});
  INFO("stderr:\n" << passing.err << "stdout:\n" << passing.out);
  CHECK(passing.exit_code == 0);
  const auto failing = box.sweep({"run", experiment("wrong == 0 && size_bytes < 100000"), "--label", "bad", "-j", "1"});
  INFO("stderr:\n" << failing.err << "stdout:\n" << failing.out);
  CHECK(failing.exit_code == 1);
  auto db = box.db();
  SQLite::Statement q(db, "SELECT r.failure_class, r.failure_reason FROM runs r JOIN campaigns c ON c.id = r.campaign_id "
                          "WHERE c.label = 'bad'");
  REQUIRE(q.executeStep());
  CHECK(q.getColumn(0).getString() == "criterion");
  CHECK(q.getColumn(1).getString().substr(0, q.getColumn(1).getString().find('\n')) == "success.where \"wrong == 0 && size_bytes < 100000\" at index 1 is false with "
                                      "wrong=0.0, size_bytes=131072.0 (and at 1 other index)");
}
