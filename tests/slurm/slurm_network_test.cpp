// Network counters of a two-node job on the development cluster: both emulated nodes share one kernel
// and talk over lo, so with `interfaces: [lo]` the collbench all-reduce between them must show in
// nic_volume.
#include <catch2/catch.hpp>

#include <filesystem>

#include "slurm/slurm_harness.h"

using namespace slurmtest;

TEST_CASE("a two-node all-reduce's bytes between the nodes are in nic_volume, over the measured span", "[solo]") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "nic");
  box.write("nic.yaml", R"(name: nic
executor: slurm
matrix:
  backend: [gloo]
resources: {nodes: 2, ntasks-per-node: 1, time: 5}
network:
  interfaces: [lo]
workload:
  bundled: collbench
  launcher: srun
  mpi: pmix
  args: {backend: "{{backend}}", op: allreduce, dtype: fp32, min-bytes: 16M, max-bytes: 16M, iters: 5, warmup: 1}
)");
  const auto r = box.sweep({"run", "nic.yaml", "--label", L, "--poll-max", "1"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  REQUIRE(query(box, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == "1");
  const std::string dir = query(box, "SELECT run_dir FROM runs");
  for (const char* file : {"nic.start.n1", "nic.start.n2", "nic.end.n1", "nic.end.n2"}) {
    INFO(dir << "/" << file);
    CHECK(std::filesystem::exists(dir + "/" + file));
  }
  // A ring all-reduce of S bytes over 2 ranks sends 2(n-1)/n S = S bytes from each rank to the other:
  // 2 S per timed iteration between the nodes (the warm-up only adds to it).
  const double size = std::stod(query(box, "SELECT value FROM metrics WHERE name = 'size_bytes'"));
  const double sent = 2 * size * 5;
  const double volume = std::stod(query(box, "SELECT value FROM metrics WHERE name = 'nic_volume'"));
  const double rate = std::stod(query(box, "SELECT value FROM metrics WHERE name = 'nic_throughput'"));
  const double span = std::stod(query(box, "SELECT value FROM run_provenance WHERE key = 'nic_span_s'"));
  const double elapsed = std::stod(query(box, "SELECT elapsed_s FROM attempts"));
  INFO("size " << size << " volume " << volume << " rate " << rate << " span " << span << " elapsed " << elapsed);
  CHECK(size == 16 * 1024 * 1024);
  CHECK(volume >= sent);
  CHECK(span > 0);
  CHECK(span <= elapsed + 1);  // Slurm's elapsed time has whole seconds
  CHECK(rate == Approx(volume * 8 / span).epsilon(1e-3));
  // The measured span (last start sample to first end sample) lies within the whole sampled one.
  CHECK(std::stod(query(box, "SELECT value FROM run_provenance WHERE key = 'nic_sampled_span_s'")) >= span);
}
