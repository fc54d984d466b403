// Secrets through the Slurm executor on the development cluster (docs/experiment-format.md#secrets),
// the scenario of tests/e2e/secrets_scenario.h: the values reach the job through sbatch's environment,
// never the job script; no marker is in any file under the results and reports, the database's dump or
// `show`, and the workload received each one.
#include <catch2/catch.hpp>

#include "e2e/secrets_scenario.h"
#include "slurm/slurm_harness.h"

using namespace slurmtest;
using namespace secrets_test;

TEST_CASE("secrets reach a Slurm job through its environment and nothing sweep writes or prints") {
  slurm_conf();
  e2e::Sandbox box;
  const Markers m;
  prepare(box, m, "executor: slurm\nresources: {nodes: 1, ntasks: 1, time: 2}\n");
  const std::string label = unique_label(box, "secrets");
  const auto run = box.sweep({"run", "secrets.yaml", "--label", label, "--poll-max", "1"});
  INFO(run.out << run.err);
  CHECK(run.exit_code != 0);  // the point fail=1 fails
  CHECK(query(box, "SELECT COUNT(*) FROM runs WHERE state = 'succeeded'") == "1");
  CHECK(query(box, "SELECT COUNT(*) FROM run_provenance WHERE key = 'slurm.job_id'") == "2");  // through sbatch
  CHECK(query(box, "SELECT COUNT(*) FROM run_provenance WHERE key = 'job.comm_env' AND value LIKE "
                   "'%NCCL_TEST_TOKEN=***%'") == "2");  // the job script's own record of NCCL_*, masked
  CHECK(check_received(box.path("results/" + label), m) == 2);
  REQUIRE(box.sweep({"report", label}).exit_code == 0);
  expect_no_marker(box, m, label);
  ::unsetenv("SWEEP_TEST_REF");
  ::unsetenv("NCCL_TEST_TOKEN");
}
