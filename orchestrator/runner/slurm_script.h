#pragma once
// The Slurm job array of one submission: its `#SBATCH` options (from the experiment's resources, via
// spec/resources.h) and its task table. Pure, except write_task_table.
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "spec/experiment.h"
#include "templating/render.h"

namespace sweep::runner {

/// The variables of templates/slurm/array.sh.mustache.
inline constexpr std::array<std::string_view, 8> kArrayVariables{
    "campaign", "submission", "job_name", "tag", "array", "submission_dir", "tasks_file", "sbatch_options"};

/// `#SBATCH` option words for resources whose values have been rendered for one point, in file order.
/// A key given more than once (a site's value, then the experiment's: spec/site.h) takes its last
/// value, or for an optional key its last non-empty one, so that an experiment's empty partition or
/// account leaves the site's in place; `extra` items are all kept. Throws Error(invalid_experiment) at
/// the resource for a value that rendered empty or with whitespace, or a flag that is not a boolean.
std::vector<std::string> sbatch_options(const std::vector<std::pair<const spec::Resource*, std::string>>& rendered);

/// Slurm's --array value for task ids 0..count-1 with an optional throttle: "0-11%2".
std::string array_range(std::size_t count, std::size_t max_running);

/// The job name of a campaign's submission: how sweep finds its array when sbatch never answered.
std::string array_job_name(const std::string& campaign, std::int64_t submission);

/// The variables of one submission's array script (templates/slurm/array.sh.mustache): `tasks` array
/// tasks throttled to `max_running` (0 = none), with `options` as its #SBATCH lines, its files in `dir`.
templating::Variables array_variables(const std::string& campaign, std::int64_t submission, const std::string& dir,
                                      std::size_t tasks, std::size_t max_running, const std::vector<std::string>& options);

/// One line per task of a submission's table: task id, run directory, run id, attempt.
struct TaskRow {
  int task = 0;
  std::string run_dir;
  std::int64_t run_id = 0;
  int attempt = 0;
};

/// The task table (format 1, tab-separated, "# sweep task table" header) that maps each array task
/// id to its run directory. The array script looks its task up here by id, never by arithmetic.
std::string task_table(const std::vector<TaskRow>& rows);

}  // namespace sweep::runner
