// runner/scheduler_look.h: what a scheduler says of a task under way, as the provenance values that
// `sweep status` reads (the batch driver records them; `status --watch` shows them of a detached campaign).
#include <catch2/catch.hpp>

#include "runner/scheduler_look.h"

using namespace sweep;
using namespace sweep::runner;

TEST_CASE("a queued task's values carry its reason, a running one's an empty reason") {
  sched::JobRecord pending;
  pending.state = "PENDING";
  pending.reason = "ReqNodeNotAvail, UnavailableNodes:n1";
  CHECK(scheduler_state_values("slurm", 7, 2, sched::Phase::queued, pending) ==
        std::vector<store::AttemptValue>{{7, 2, "slurm.phase", "queued"},
                                         {7, 2, "slurm.state", "PENDING"},
                                         {7, 2, "slurm.reason", "ReqNodeNotAvail, UnavailableNodes:n1"}});
  sched::JobRecord running;
  running.state = "RUNNING";
  running.reason = "None";
  CHECK(scheduler_state_values("slurm", 7, 2, sched::Phase::running, running) ==
        std::vector<store::AttemptValue>{{7, 2, "slurm.phase", "running"}, {7, 2, "slurm.state", "RUNNING"}, {7, 2, "slurm.reason", ""}});
}
