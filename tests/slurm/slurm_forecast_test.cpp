// `sweep plan --estimate` on the development cluster: the expected start from `sbatch --test-only`, one
// call per resource shape, submitting nothing (docs/forecasts.md).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "slurm/slurm_harness.h"

using namespace slurmtest;

TEST_CASE("plan --estimate asks sbatch --test-only when each resource shape would start, and submits nothing") {
  slurm_conf();
  e2e::Sandbox box;
  box.write("fc.yaml", "name: fc\ntelemetry: false\nexecutor: slurm\nmatrix:\n  n: [1, 2, 3]\n"
                       "resources:\n  nodes: \"{{n}}\"\n  time: \"5:00\"\nworkload:\n  command: \"true\"\n");
  const std::string before = shell("squeue -h -o %i | wc -l").out;
  const auto plan = box.sweep({"plan", "fc.yaml", "--estimate"});
  INFO(plan.err);
  REQUIRE(plan.exit_code == 0);
  // Nodes 1 and 2 fit the two-node cluster: a time and the nodes. Three nodes do not: refused, said so.
  CHECK_THAT(plan.out, Catch::Matches(R"((.|\n)*expected start \(sbatch --test-only, --nodes=1 --time=5:00\): 20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d on n\S* in partition debug(.|\n)*)"));
  CHECK_THAT(plan.out, Catch::Contains("expected start (sbatch --test-only, --nodes=2 --time=5:00): "));
  CHECK_THAT(plan.out, Catch::Contains("expected start (sbatch --test-only, --nodes=3 --time=5:00): refused: allocation "
                                       "failure: Requested node configuration is not available"));
  const auto json = box.sweep({"plan", "fc.yaml", "--estimate", "--format", "json"});
  REQUIRE(json.exit_code == 0);
  CHECK_THAT(nlohmann::json::parse(json.out)["estimate"]["expected_start"].get<std::string>(), Catch::Contains(" on n"));
  CHECK(shell("squeue -h -o %i | wc -l").out == before);  // --test-only submits nothing
}
