#pragma once
// The runs of a campaign executing now, for `sweep status`: which point and repetition, for how long,
// and where their output is (docs/campaigns.md#watching-a-campaign).
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "report/campaign_data.h"

namespace sweep::report {

struct RunningRun {
  const store::RunRecord* run = nullptr;
  const store::PointRecord* point = nullptr;  // nullptr only for a database that lost the point
  std::optional<double> elapsed_s;            // since its attempt began; none without `now` or a start time
  std::string stdout_path;                    // <run_dir>/stdout, where both job scripts send the workload's stdout
  bool queued = false;          // a batch scheduler holds it in its queue (phase "queued"): submitted, not started
  std::string scheduler_state;  // the scheduler's state name ("PENDING", "RUNNING"); "" when none was recorded
  std::string reason;           // why the scheduler keeps it waiting ("Resources", "ReqNodeNotAvail, ..."); "" if none
};

/// The runs in state running, in run order, with what a batch scheduler last said of each
/// (CampaignData::scheduler_states). `now`: the wall clock, for their elapsed times.
std::vector<RunningRun> running_runs(const CampaignData& data,
                                     std::optional<std::chrono::system_clock::time_point> now);

/// How many of the runs in state running a batch scheduler still holds queued (not started).
std::size_t queued_runs(const CampaignData& data);

/// "queued on the scheduler:" and one line per queued run: `  n=3  rep 1  PENDING (ReqNodeNotAvail)  0:42`
/// (the time since it was submitted), then "running now:" and one line per run that started:
/// `  n=3, threads=2  rep 1  0:42  results/x/p0003/r1/a1/stdout`. Each part "" when it has no run; the
/// elapsed time is left out when unknown.
std::string running_section(const std::vector<RunningRun>& runs);

/// The "running" array's elements (without brackets): point_id, params (non-derived, as text),
/// repetition, attempt, started_at, elapsed_s (null when unknown), stdout, queued (true/false),
/// scheduler_state and reason (null when not recorded or empty).
std::string running_json_members(const std::vector<RunningRun>& runs);

/// The point's parameters as `n=3, threads=2` (derived values left out; "" when it has none).
std::string point_params_text(const store::PointRecord& p);

}  // namespace sweep::report
