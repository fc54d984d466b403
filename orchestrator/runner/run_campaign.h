#pragma once
// The campaign driver of `sweep run`: plan -> record -> run -> ingest, resumable at any point.
//
// Crash contract: every state change of a run is committed to the database before the next action
// (a run is marked running before its process starts; its result, metrics included, is committed in
// one transaction after it ends). A controller killed at any moment, even by SIGKILL, is resumed by
// running the same label again: runs left "running" are recorded as interrupted attempts and run
// again, succeeded runs are never run again, and the campaign ends with exactly its planned runs.
#include <string>
#include <utility>
#include <vector>

#include "runner/campaign_plan.h"
#include "runner/run_options.h"
#include "runner/stop.h"  // request_stop(): a running campaign stops starting runs, cancels the active ones and returns

namespace sweep::runner {

/// Runs (or resumes) a campaign. Throws sweep::Error for invalid input before anything is written.
RunSummary run_campaign(const RunOptions& options);

/// The plan of `experiment` with its metric rules compiled: everything `sweep run` refuses before it
/// writes anything (CampaignPlan's checks and the rules'). Throws Error(invalid_experiment).
/// `max_points`: CampaignPlan's limit for PlanUse::run; `dirs`: where a new campaign's runs will lie.
CampaignPlan checked_plan(spec::Experiment experiment, const std::string& template_dir, PlanUse use,
                          std::uint64_t max_points = matrix::kDefaultMaxPoints, const PlanDirs& dirs = {});

/// `sweep plan`'s check: the experiment of `options` resolved as `sweep run` resolves it (--set,
/// --executor, the site file of options.site applied) and planned with checked_plan, for PlanUse::check
/// (bundled programs need not be built), or PlanUse::estimate (`--estimate`: its points kept). Reads the
/// experiment and the templates; writes nothing.
CampaignPlan plan_campaign(const RunOptions& options, PlanUse use = PlanUse::check);

/// One `sweep collect` pass over a Slurm campaign: reconcile, ingest what ended, retry, submit what
/// the queue limit allows, and return. Safe to run from cron: a second controller of the same
/// campaign is refused with Error(usage) while one holds the campaign's lock.
RunSummary collect_campaign(const RunOptions& options);

/// Adds `more` runs to the points of the existing campaign `label` (point id, count; Store::add_runs)
/// and runs the campaign to its end as `sweep run --resume label` does, its failed runs left as they
/// are (the budget is the added runs').
/// Error(not_found) for an unknown label. The extension of `sweep compare --extend-budget`.
RunSummary run_more(RunOptions options, const std::string& label, const std::vector<std::pair<std::string, int>>& more);

/// Cancels every job the campaign has queued on the cluster and records those attempts as cancelled.
RunSummary cancel_campaign(const RunOptions& options);

}  // namespace sweep::runner
