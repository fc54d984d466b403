// Secrets through the Slurm executor on the development cluster (docs/experiment-format.md#secrets),
// the scenario of tests/e2e/secrets_scenario.h: the values reach the job through sbatch's environment,
// never the job script; no marker is in any file under the results and reports, the database's dump or
// `show`, and the workload received each one.
#include <catch2/catch.hpp>

#include "e2e/secrets_scenario.h"
#include "slurm/slurm_harness.h"

using namespace slurmtest;
using namespace secrets_test;

namespace {

/// The scenario's experiment on the slurm executor, in `box`; returns a label unique on the cluster.
std::string slurm_scenario(const e2e::Sandbox& box, const Markers& m, const std::string& name) {
  slurm_conf();
  prepare(box, m, "executor: slurm\nresources: {nodes: 1, ntasks: 1, time: 2}\n");
  return unique_label(box, name);
}

}  // namespace

TEST_CASE("secrets reach a Slurm job through its environment and nothing sweep writes or prints") {
  e2e::Sandbox box;
  const Markers m;
  const std::string label = slurm_scenario(box, m, "secrets");
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

TEST_CASE("collect submits a detached campaign's later runs with its secrets, and refuses without them") {
  e2e::Sandbox box;
  const Markers m;
  const std::string label = slurm_scenario(box, m, "secrets-collect");
  // --max-queued 1: the detached run submits one run; collect submits the other.
  const auto d = box.sweep({"run", "secrets.yaml", "--label", label, "--detach", "--max-queued", "1"});
  INFO(d.out << d.err);
  REQUIRE(d.exit_code == 0);
  CHECK(query(box, "SELECT count(*) FROM submission_tasks") == "1");
  // The stored experiment holds its literal secrets masked: collect takes them from its environment, as a
  // resume does, and refuses without one before it submits anything.
  const auto refused = box.sweep({"collect", label, "--max-queued", "1"});
  CHECK(refused.exit_code == 3);
  CHECK_THAT(refused.err, Catch::Contains("\"env.HF_TOKEN\" was a literal secret, stored masked (***)"));
  CHECK(query(box, "SELECT count(*) FROM submission_tasks") == "1");
  ::setenv("HF_TOKEN", m.literal.c_str(), 1);
  ::setenv("PLAIN", m.marked.c_str(), 1);
  ::setenv("API_KEY", m.setup.c_str(), 1);
  e2e::Result c;
  wait_until([&] {
    c = box.sweep({"collect", label, "--max-queued", "1", "--poll-max", "1"});
    return c.out.find("0 unfinished") != std::string::npos;
  }, std::chrono::seconds(120), "collect to finish the campaign");
  INFO(c.out << c.err);
  CHECK(query(box, "SELECT count(*) FROM submission_tasks") == "2");
  CHECK(check_received(box.path("results/" + label), m) == 2);  // the run collect submitted got every value
  REQUIRE(box.sweep({"report", label}).exit_code == 0);
  expect_no_marker(box, m, label);
  for (const char* v : {"HF_TOKEN", "PLAIN", "API_KEY", "SWEEP_TEST_REF", "NCCL_TEST_TOKEN"}) ::unsetenv(v);
}
