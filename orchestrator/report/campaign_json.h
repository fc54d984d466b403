#pragma once
// `--format json` of `sweep ls`, `status` and `show`: the text views' content as JSON objects, each
// with "version": 5 (docs/database.md "JSON views"; 2 added show's "run_matches", 3 status's "running" and
// show's "changes", 4 each running run's "queued", "scheduler_state" and "reason", 5 `show --efficiency`).
// Pure.
#include <string>
#include <vector>

#include "report/campaign_view.h"

namespace sweep::report {

inline constexpr int kCampaignJsonVersion = 6;

/// {"version", "campaigns": [{label, experiment, executor, started_at, ended_at, runs: {state: n}}]}
std::string campaign_list_json(const std::vector<CampaignSummary>& campaigns);
/// {"version", "campaign", "executor", "ended_at", "runs": {state: n}, "failures": {class: n},
///  "points": [{point_id, params: {name: typed value}, succeeded, failed, unfinished}],
///  "running": [{point_id, params: {name: text}, repetition, attempt, started_at, elapsed_s, stdout}]}
/// (report/running_runs.h; elapsed_s at `now`, null without it).
std::string campaign_status_json(const CampaignData& data,
                                 std::optional<std::chrono::system_clock::time_point> now = std::nullopt);
/// campaign_status_json's members and the campaign's provenance (experiment, spec_path, spec_sha256,
/// overrides, started_at, host, user, sweep_version, git_commit, git_dirty, run_root), "failed_runs",
/// "run_matches" ([{point_id, repetition, attempt, matches: {metric: count}}], one per run in
/// `matches`), "latest_run_provenance", and "changes" ([{at, user, host, kind, what, rules_hash}], the
/// campaign's recorded edits, oldest first: store campaign_changes).
std::string campaign_detail_json(const CampaignData& data, const store::KeyValues& last_run_provenance,
                                 const std::vector<RunMatches>& matches,
                                 const std::vector<store::ChangeRecord>& changes = {});

}  // namespace sweep::report
