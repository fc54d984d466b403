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

namespace sweep::runner {

/// The indices of `k` of `n` items spread evenly over them, in order, the first and the last included
/// (every index when k is 0 or k >= n; {0} when k is 1).
std::vector<std::size_t> spread_sample(std::size_t n, std::size_t k);

/// Renders the sampled runs' job scripts (and, for a batch executor, their job arrays) of `plan` under
/// the label `label`. RunSummary::planned counts every run, scripts_written the rendered ones. Throws
/// Error(interrupted) when a stop is requested while it writes (runner/stop.h).
RunSummary dry_run(const RunOptions& options, const CampaignPlan& plan, const std::string& label);

}  // namespace sweep::runner
