#include <catch2/catch.hpp>

#include "runner/dry_run.h"

using namespace sweep;

TEST_CASE("a dry run's sample spreads over the runs, the first and the last among them") {
  using V = std::vector<std::size_t>;
  CHECK(runner::spread_sample(10, 0) == V{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});  // 0: every one
  CHECK(runner::spread_sample(3, 5) == V{0, 1, 2});                        // fewer runs than the sample
  CHECK(runner::spread_sample(10, 1) == V{0});
  CHECK(runner::spread_sample(10, 2) == V{0, 9});
  CHECK(runner::spread_sample(10, 4) == V{0, 3, 6, 9});
  CHECK(runner::spread_sample(0, 4).empty());
  const V big = runner::spread_sample(1'000'000'000'000ULL, 100);
  REQUIRE(big.size() == 100);
  CHECK(big.front() == 0);
  CHECK(big.back() == 999'999'999'999ULL);
  for (std::size_t i = 1; i < big.size(); ++i) CHECK(big[i] > big[i - 1]);
}

TEST_CASE("a dry run cuts its arrays at the cluster's MaxArraySize when the cluster answered, and says whose") {
  sched::Limits cluster;
  cluster.max_array_tasks = 4;
  cluster.from_cluster = true;
  const runner::ArrayCut c = runner::array_cut(cluster);
  CHECK(c.max_tasks == 4);
  CHECK(c.why == "at most 4 tasks each, the cluster's MaxArraySize");
  const runner::ArrayCut d = runner::array_cut(sched::Limits{});  // no cluster: the defaults
  CHECK(d.max_tasks == 1001);
  CHECK(d.why == "at most 1001 tasks each, Slurm's default MaxArraySize: no cluster answered scontrol show config");
  cluster.max_array_tasks = 0;  // never an empty array
  CHECK(runner::array_cut(cluster).max_tasks == 1);
}
