#pragma once
// `sweep rerun` and `sweep extend`: run chosen runs of a stored campaign again, each as a new attempt
// of the same run, or add repetitions to its points as new runs; both recorded as changes of the
// campaign and driven to their end as `sweep run --resume` does, on the local executor or a batch one
// (docs/campaigns.md, "Fixing a campaign").
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "runner/run_options.h"
#include "store/records.h"

namespace sweep::runner {

/// Which runs or points: every `where` (parameter=value) must hold for the point (values compared as
/// numbers when both are numbers, else as text); `state` is failed | succeeded | all; `runs`, when
/// given, keeps only the runs named: each a point id (its every repetition), `<point id>.rep<N>` (as a
/// run directory's name begins and `sweep show` lists it: "<point id> rep N"), or a run id
/// (runs.run_id in the database and the views).
struct RunSelection {
  std::vector<std::pair<std::string, std::string>> where;
  std::string state = "failed";
  std::vector<std::string> runs;
};

/// "name=value" as a where pair; Error(usage) for text without '='. Pure.
std::pair<std::string, std::string> parse_where(const std::string& text);

/// The points matching selection.where, in point order. Error(usage) for a parameter no point has
/// (naming the parameters) or a state not in the list. Pure.
std::vector<std::string> select_points(const std::vector<store::PointRecord>& points, const RunSelection& selection);

/// The ids of the runs of the selected points whose state matches and, when `runs` is given, that one
/// of them names (Error(usage) for a name that names no run of the campaign). Running runs never. Pure.
std::vector<std::int64_t> select_runs(const std::vector<store::PointRecord>& points,
                                      const std::vector<store::RunRecord>& runs, const RunSelection& selection);

/// Queues the selected runs of campaign `label` again (Store::requeue_runs, one change recorded) and
/// runs them to their end. Error(usage) when nothing matches, naming the selection; refused while a
/// controller drives the campaign. options.resume is set to `label`.
RunSummary rerun_campaign(RunOptions options, const std::string& label, const RunSelection& selection);

/// Adds `repetitions` runs to each selected point (selection.where; its state and run_ids ignored) of
/// campaign `label` (Store::add_runs, one change recorded) and runs them to their end.
RunSummary extend_campaign_by(RunOptions options, const std::string& label, int repetitions, const RunSelection& selection);

}  // namespace sweep::runner
