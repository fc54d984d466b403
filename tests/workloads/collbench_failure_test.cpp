// What collbench does when ranks are missing, disagree, or are asked for the impossible.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>

#include "workloads/collbench_harness.h"

using workloads::mpirun_collbench;

TEST_CASE("a gloo peer that never arrives is named within the timeout") {
  e2e::Sandbox box;
  const auto start = std::chrono::steady_clock::now();
  const auto r = e2e::shell("cd " + box.dir().string() + " && RANK=0 WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29512 " +
                            COLLBENCH_BIN + " --backend gloo --timeout 2");
  const auto took = std::chrono::steady_clock::now() - start;
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("collbench: rank 0: error: rank(s) 1, 2 of 3 did not arrive within 2 s"));
  CHECK(took < std::chrono::seconds(20));
}

TEST_CASE("gloo ranks started with different world sizes fail at start") {
  e2e::Sandbox box;
  const std::string cmd = std::string(COLLBENCH_BIN) + " --backend gloo --timeout 3";
  const auto r = e2e::shell("cd " + box.dir().string() + " && export MASTER_ADDR=127.0.0.1 MASTER_PORT=29513; " +
                            "RANK=1 WORLD_SIZE=3 " + cmd + " 2> r1.err & RANK=0 WORLD_SIZE=2 " + cmd +
                            "; echo rank0=$?; wait %1; echo rank1=$?; cat r1.err >&2");
  CHECK_THAT(r.out, Catch::Contains("rank0=1"));
  CHECK_THAT(r.out, Catch::Contains("rank1=1"));
  CHECK_THAT(r.err, Catch::Contains("rank 1 was started with world size 3, rank 0 with 2"));
}

TEST_CASE("an mpi world size that disagrees with the launcher's variables is an error at start") {
  const auto r = workloads::mpirun("sh", 2, "-c 'RANK=$OMPI_COMM_WORLD_RANK WORLD_SIZE=4 exec " +
                                                std::string(COLLBENCH_BIN) + " --backend mpi'");
  CHECK(r.exit_code != 0);
  CHECK_THAT(r.err, Catch::Contains("MPI says rank 0 of 2, but the torchrun variables say rank 0 of 4 (mismatched world size)"));
}

TEST_CASE("usage errors exit 2 and name the option") {
  const auto r = e2e::shell(std::string(COLLBENCH_BIN) + " --op allreduse");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("collbench: error: --op: \"allreduse\" is not one of allreduce,"));
  const auto root = mpirun_collbench(2, "--op broadcast --root 5 -b 1K");
  CHECK(root.exit_code != 0);
  CHECK_THAT(root.err, Catch::Contains("--root 5 is outside [0, 2)"));
}
