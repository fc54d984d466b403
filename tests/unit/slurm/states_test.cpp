#include <catch2/catch.hpp>

#include "slurm/states.h"

using namespace sweep::slurm;

TEST_CASE("job states: phase and failure class") {
  CHECK(state_info("PENDING").phase == Phase::queued);
  CHECK(state_info("RUNNING").phase == Phase::running);
  CHECK(state_info("COMPLETING").phase == Phase::running);
  CHECK(state_info("COMPLETED").phase == Phase::finished);
  CHECK(state_info("COMPLETED").failure_class.empty());  // judged by exit code and metrics
  CHECK(state_info("FAILED").failure_class.empty());
  CHECK(state_info("TIMEOUT").failure_class == "timeout");
  CHECK(state_info("NODE_FAIL").failure_class == "node_fail");
  CHECK(state_info("OUT_OF_MEMORY").failure_class == "out_of_memory");
  CHECK(state_info("PREEMPTED").failure_class == "preempted");
  CHECK(state_info("BOOT_FAIL").failure_class == "boot_fail");
  CHECK(state_info("CANCELLED").failure_class == "cancelled");
  CHECK(state_info("SOMETHING_NEW").phase == Phase::running);  // watched, not guessed
}

TEST_CASE("pending reasons: hopeless ones and a dependency that can never be met") {
  CHECK(hopeless_reason("ReqNodeNotAvail, UnavailableNodes:n1"));
  CHECK(hopeless_reason("PartitionConfig"));
  CHECK(hopeless_reason("BadConstraints"));
  CHECK(!hopeless_reason("Resources"));
  CHECK(!hopeless_reason("Priority"));
  CHECK(!hopeless_reason("None"));
  CHECK(dependency_never_satisfied("DependencyNeverSatisfied"));
  CHECK(!dependency_never_satisfied("Dependency"));
}

#include "slurm/client.h"

TEST_CASE("an unreachable or busy controller is a transient error, a refused job is not") {
  CHECK(transient_error("sbatch: error: Batch job submission failed: Unable to contact slurm controller (connect failure)"));
  CHECK(transient_error("slurm_load_jobs error: Socket timed out on send/recv operation"));
  CHECK(!transient_error("sbatch: error: Batch job submission failed: Invalid partition name specified"));
  CHECK(!transient_error("sbatch: error: invalid partition specified: nosuch"));
}
