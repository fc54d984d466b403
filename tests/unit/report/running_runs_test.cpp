// report/running_runs.h: the runs under way, with what a batch scheduler last said of each (queued
// with its pending reason, or started), as `sweep status` shows them.
#include <catch2/catch.hpp>

#include "report/campaign_view.h"
#include "report/running_runs.h"

using namespace sweep;
using namespace sweep::report;

namespace {

CampaignData two_running() {
  CampaignData d;
  d.campaign.label = "c";
  d.campaign.executor = "slurm";
  d.points = {store::PointRecord{"p0", 0, {{"n", "1", "int", false}}}, store::PointRecord{"p1", 1, {{"n", "2", "int", false}}}};
  for (int i = 0; i < 2; ++i) {
    store::RunRecord r;
    r.id = i + 1;
    r.point_id = "p" + std::to_string(i);
    r.state = store::RunState::running;
    r.attempt = 1;
    r.run_dir = "/runs/p" + std::to_string(i);
    d.runs.push_back(r);
  }
  d.scheduler_states = {{1, 1, "slurm.phase", "running"}, {1, 1, "slurm.reason", ""}, {1, 1, "slurm.state", "RUNNING"},
                        {2, 1, "slurm.phase", "queued"}, {2, 1, "slurm.reason", "ReqNodeNotAvail, UnavailableNodes:n2"},
                        {2, 1, "slurm.state", "PENDING"}};
  return d;
}

}  // namespace

TEST_CASE("a run the scheduler holds pending is shown queued with its reason, not running") {
  const CampaignData d = two_running();
  const auto runs = running_runs(d, std::nullopt);
  REQUIRE(runs.size() == 2);
  CHECK_FALSE(runs[0].queued);
  CHECK(runs[1].queued);
  CHECK(runs[1].scheduler_state == "PENDING");
  CHECK(queued_runs(d) == 1);
  CHECK(running_section(runs) ==
        "\nqueued on the scheduler (state, reason, time since submitted):\n  n=2  rep 0  PENDING (ReqNodeNotAvail, "
        "UnavailableNodes:n2)\n\nrunning now:\n  n=1  rep 0  /runs/p0/stdout\n");
  const std::string status = campaign_status(d);
  CHECK_THAT(status, Catch::StartsWith("campaign c (slurm executor), 2 runs: succeeded 0, failed 0, running 1, queued 1, pending 0\n"));
  CHECK_THAT(running_json_members(runs), Catch::Contains(R"("queued": true, "scheduler_state": "PENDING", "reason": "ReqNodeNotAvail, UnavailableNodes:n2")") &&
                                             Catch::Contains(R"("queued": false, "scheduler_state": "RUNNING", "reason": null)"));
}

TEST_CASE("without any scheduler state (local runs, or not yet polled) a running run is shown running") {
  CampaignData d = two_running();
  d.scheduler_states.clear();
  CHECK(queued_runs(d) == 0);
  CHECK_THAT(campaign_status(d), Catch::Contains("running 2, pending 0\n") && Catch::Contains("\nrunning now:\n"));
  CHECK(campaign_status(d).find("queued") == std::string::npos);
}
