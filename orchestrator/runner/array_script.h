#pragma once
// The job array of one submission to a batch scheduler: the variables of its script
// (templates/<executor>/array.sh.mustache) and its task table. Pure.
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "templating/render.h"

namespace sweep::runner {

/// The variables of templates/slurm/array.sh.mustache.
inline constexpr std::array<std::string_view, 8> kArrayVariables{
    "campaign", "submission", "job_name", "tag", "array", "submission_dir", "tasks_file", "sbatch_options"};

/// The array's task range for ids 0..count-1 with an optional throttle: "0-11%2".
std::string array_range(std::size_t count, std::size_t max_running);

/// The job name of a campaign's submission: how sweep finds its array when sbatch never answered.
std::string array_job_name(const std::string& campaign, std::int64_t submission);

/// The variables of one submission's array script: `tasks` array tasks throttled to `max_running`
/// (0 = none), with `directives` as its lines "<prefix> <directive>" (the template's `sbatch_options`,
/// "#SBATCH --nodes=2" for Slurm), its files in `dir`.
templating::Variables array_variables(const std::string& campaign, std::int64_t submission, const std::string& dir,
                                      std::size_t tasks, std::size_t max_running, std::string_view prefix,
                                      const std::vector<std::string>& directives);

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
