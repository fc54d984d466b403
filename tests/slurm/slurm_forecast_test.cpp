// `sweep plan --estimate` on the development cluster: the expected start from `sbatch --test-only`, one
// call per resource shape, submitting nothing (docs/forecasts.md).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <sstream>
#include <string>

#include "slurm/slurm_harness.h"

using namespace slurmtest;

TEST_CASE("plan --estimate asks sbatch --test-only when each resource shape would start, and submits nothing") {
  slurm_conf();
  e2e::Sandbox box;
  box.write("fc.yaml", "name: fc\ntelemetry: false\nexecutor: slurm\nmatrix:\n  n: [1, 2, 3]\n"
                       "resources:\n  nodes: \"{{n}}\"\n  time: \"5:00\"\nworkload:\n  command: \"true\"\n");
  // The real sbatch, each call logged: other cases of the suite submit to the same cluster meanwhile, so
  // "submits nothing" is read from this case's own calls, not from the queue's length.
  ::setenv("PATH", logging_slurm(box, {"sbatch"}).c_str(), 1);
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
  // One call per resource shape and invocation, each with --test-only (besides the version query):
  // nothing was submitted.
  std::istringstream log(e2e::read_file(box.path("slurm.log")));
  int calls = 0;
  for (std::string line; std::getline(log, line);) {
    if (line.rfind("> sbatch", 0) != 0 || line == "> sbatch --version") continue;  // the version query submits nothing
    ++calls;
    CHECK_THAT(line, Catch::Contains("--test-only"));
  }
  CHECK(calls == 6);
}
