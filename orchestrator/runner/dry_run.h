#pragma once
// `sweep run --dry-run`: the job scripts of a campaign rendered into <results>/<label>/dry-run/, with
// nothing run and nothing recorded. A matrix may plan a million runs, so a dry run renders a bounded
// sample of them, spread evenly over the runs in plan order (the first and the last among them), and
// says so; RunOptions::dry_run_sample = 0 renders every one.
#include <cstddef>
#include <string>
#include <vector>

#include "runner/campaign_plan.h"
#include "runner/run_options.h"
#include "sched/job.h"

namespace sweep::runner {

/// The indices of `k` of `n` items spread evenly over them, in order, the first and the last included
/// (every index when k is 0 or k >= n; {0} when k is 1).
std::vector<std::size_t> spread_sample(std::size_t n, std::size_t k);

/// Where a batch dry run cuts a group of runs into arrays: at most `max_tasks` tasks each (at least 1),
/// and `why`, "at most N tasks each, ..." naming the cluster's own limit when it answered, else the
/// scheduler's default, said as such.
struct ArrayCut {
  std::size_t max_tasks = 0;
  std::string why;
};

/// The cut for `limits` as the scheduler's limits() gave them (sched::Limits::from_cluster says whether
/// the cluster answered). Pure.
ArrayCut array_cut(const sched::Limits& limits);

/// Renders the sampled runs' job scripts (and, for a batch executor, their job arrays) of `plan` under
/// the label `label`, each as <run directory>/run.sh like a real run's, its run directory named as a
/// real first attempt's (<point>.rep<R>.attempt1): a batch array's task table names those directories
/// and its script runs their run.sh. A batch dry run asks the scheduler for its limits (array_cut).
/// RunSummary::planned counts every run, scripts_written the rendered ones. Throws
/// Error(interrupted) when a stop is requested while it writes (runner/stop.h).
RunSummary dry_run(const RunOptions& options, const CampaignPlan& plan, const std::string& label);

}  // namespace sweep::runner
