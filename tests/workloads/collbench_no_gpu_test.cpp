// collbench asked for a GPU (--backend nccl, or --device cuda on gloo and mpi) on a node without a usable
// one (the build machines: CUDA and NCCL, no GPU): every rank ends at once with one line that says what
// is missing, before any rank waits for its peers.
// On a GPU machine the single-rank run succeeds and there is nothing to check.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>

#include "workloads/collbench_harness.h"

namespace {

// Far below the --timeout 60 that a rank waiting at the rendezvous would spend.
constexpr auto kAtOnce = std::chrono::seconds(15);

struct Timed {
  e2e::Result result;
  std::chrono::steady_clock::duration took;
};

template <typename F>
Timed timed(F&& run) {
  const auto start = std::chrono::steady_clock::now();
  e2e::Result result = run();
  return {std::move(result), std::chrono::steady_clock::now() - start};
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("collbench --backend nccl without a usable GPU ends every rank at once with what is missing") {
  e2e::Sandbox box;
  const std::string args = " --backend nccl -b 1K --timeout 60";
  const std::string collbench = "cd " + box.dir().string() + " && " + COLLBENCH_BIN + args;
  const Timed single = timed([&] { return e2e::shell(collbench); });
  if (single.result.exit_code == 0) {
    WARN("this machine has a usable GPU and NCCL: nothing to check here");
    return;
  }
  // A build without NCCL says so (CI builds with NCCL where it is installed: scripts/test).
  const bool built = single.result.err.find("is not available in this build") == std::string::npos;
  const std::string line = built ? "collbench: error: --backend nccl needs a CUDA GPU, but " : "is not available in this build";
  INFO(single.result.err);
  CHECK(single.result.exit_code == 1);
  CHECK_THAT(single.result.err, Catch::Contains(line));
  CHECK(occurrences(single.result.err, "\n") == 1);
  if (built) CHECK_THAT(single.result.err, Catch::Contains("cudaGetDeviceCount says: "));
  CHECK(single.took < kAtOnce);

  // Rank 0 of a world of two, alone: waiting for its peer would take the whole --timeout.
  const Timed alone = timed([&] { return e2e::shell("export RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=29516; " + collbench); });
  INFO(alone.result.err);
  CHECK(alone.result.exit_code == 1);
  CHECK(occurrences(alone.result.err, line) == 1);
  CHECK(alone.took < kAtOnce);

  // Both ranks, torchrun style.
  const Timed both = timed([&] {
    return e2e::shell("export WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=29517; RANK=1 " + collbench +
                      " 2> r1.err & RANK=0 " + collbench + "; echo rank0=$?; wait $!; echo rank1=$?; cat r1.err >&2");
  });
  INFO(both.result.err);
  CHECK_THAT(both.result.out, Catch::Contains("rank0=1"));
  CHECK_THAT(both.result.out, Catch::Contains("rank1=1"));
  CHECK(occurrences(both.result.err, line) == 2);
  CHECK(both.took < kAtOnce);

  // Two ranks under mpirun.
  const Timed mpi = timed([&] { return workloads::mpirun_collbench(2, args); });
  INFO(mpi.result.err);
  CHECK(mpi.result.exit_code != 0);
  CHECK(occurrences(mpi.result.err, line) >= 1);  // mpirun may stop the second rank before it prints
  CHECK(mpi.took < kAtOnce);
}

TEST_CASE("collbench --device cuda on gloo and mpi without a usable GPU ends every rank at once with what is missing") {
  e2e::Sandbox box;
  const std::string line = "collbench: error: --device cuda needs a CUDA GPU, but ";
  const std::string collbench = "cd " + box.dir().string() + " && " + COLLBENCH_BIN + " --backend gloo --device cuda -b 1K";
  const Timed single = timed([&] { return e2e::shell(collbench); });
  if (single.result.exit_code == 0) {
    WARN("this machine has a usable GPU: nothing to check here");
    return;
  }
  INFO(single.result.err);
  CHECK(single.result.exit_code == 1);
  CHECK(single.result.err.find(line) == 0);
  CHECK(occurrences(single.result.err, "\n") == 1);
  CHECK(single.took < kAtOnce);

  // Both gloo ranks, torchrun style: neither waits for the other.
  const Timed both = timed([&] {
    return e2e::shell("export WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=29518; RANK=1 " + collbench +
                      " --timeout 60 2> r1.err & RANK=0 " + collbench + " --timeout 60; echo rank0=$?; wait $!; "
                      "echo rank1=$?; cat r1.err >&2");
  });
  INFO(both.result.err);
  CHECK_THAT(both.result.out, Catch::Contains("rank0=1") && Catch::Contains("rank1=1"));
  CHECK(occurrences(both.result.err, line) == 2);
  CHECK(both.took < kAtOnce);

  // Two mpi ranks under mpirun.
  const Timed mpi = timed([&] { return workloads::mpirun_collbench(2, " --backend mpi --device cuda -b 1K"); });
  INFO(mpi.result.err);
  CHECK(mpi.result.exit_code != 0);
  CHECK(occurrences(mpi.result.err, line) >= 1);
  CHECK(mpi.took < kAtOnce);
}
