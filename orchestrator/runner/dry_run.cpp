#include "runner/dry_run.h"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "runner/array_script.h"
#include "runner/campaign_setup.h"
#include "runner/escalation.h"
#include "runner/executors.h"
#include "runner/stop.h"
#include "sched/executors.h"
#include "util/strings.h"
#include "util/safe_files.h"

namespace sweep::runner {
namespace fs = std::filesystem;

std::vector<std::size_t> spread_sample(std::size_t n, std::size_t k) {
  std::vector<std::size_t> picked;
  if (k == 0 || k >= n) k = n;
  picked.reserve(k);
  if (k == 1) return {0};
  // floor(i * (n - 1) / (k - 1)) without the product: i * r < k^2 stays small where i * (n - 1) might not.
  const std::size_t q = (n - 1) / (k - 1), r = (n - 1) % (k - 1);
  for (std::size_t i = 0; i < k; ++i) picked.push_back(i * q + i * r / (k - 1));
  return picked;
}

ArrayCut array_cut(const sched::Limits& limits) {
  const std::size_t tasks = std::max<std::size_t>(limits.max_array_tasks, 1);
  if (limits.from_cluster) return {tasks, fmt::format("at most {} tasks each, the cluster's MaxArraySize", tasks)};
  return {tasks, fmt::format("at most {} tasks each, Slurm's default MaxArraySize: no cluster answered scontrol show config", tasks)};
}

namespace {

/// A batch dry run's job arrays: the runs grouped by their directives, as the driver submits first
/// attempts, each group cut at array_cut of the scheduler's limits, written to <dir>/array-<k>/ with
/// its task table. Returns a line per array; sets `cut` to the cut's words.
std::vector<std::string> dry_run_arrays(const RunOptions& o, const CampaignPlan& plan, const std::string& label,
                                        const fs::path& dir, const std::vector<std::pair<std::string, std::string>>& runs,
                                        std::string& cut) {
  const auto scheduler = make_scheduler(plan.experiment().executor);
  std::map<std::string, std::vector<std::string>> groups;  // options -> run directories
  std::vector<std::string> order;
  for (const auto& [point_id, run_dir] : runs) {
    auto resources = plan.resources(plan.point(point_id));
    if (o.timeout_s) resources = with_time_limit(std::move(resources), *o.timeout_s);  // --timeout, as the driver
    const std::string shape = join(scheduler->directives(resources), "\n");
    auto [it, fresh] = groups.try_emplace(shape);
    if (fresh) order.push_back(shape);
    it->second.push_back(run_dir);
  }
  const ArrayCut at = array_cut(scheduler->limits());
  const std::size_t per_array = at.max_tasks;
  cut = at.why;
  std::vector<std::string> lines;
  std::int64_t k = 0;
  for (const auto& shape : order) {
    const auto& dirs = groups[shape];
    for (std::size_t first = 0; first < dirs.size(); first += per_array) {
      const std::string array_dir = (dir / fmt::format("array-{}", ++k)).string();
      make_directories(array_dir);
      std::vector<TaskRow> rows;
      for (std::size_t i = first; i < std::min(dirs.size(), first + per_array); ++i)
        rows.push_back({static_cast<int>(i - first), dirs[i], 0, 1});
      write_text(array_dir + "/tasks.tsv", task_table(rows));
      const auto vars = array_variables(label, k, array_dir, rows.size(), o.max_running, scheduler->directive_prefix(),
                                        split(shape, '\n'));
      write_script(array_dir + "/array.sh", plan.array_script().render(vars, templating::Escape::shell));
      lines.push_back(fmt::format("{}/array.sh: {} tasks, {}", array_dir, rows.size(),
                                  shape.empty() ? "no #SBATCH options" : join(split(shape, '\n'), " ")));
    }
  }
  return lines;
}

}  // namespace

RunSummary dry_run(const RunOptions& o, const CampaignPlan& plan, const std::string& label) {
  const fs::path dir = fs::absolute(fs::path(o.results_dir) / label / "dry-run").lexically_normal();
  make_directories(dir.string());
  const auto reps = static_cast<std::size_t>(plan.experiment().repetitions);
  const std::size_t total = plan.points().size() * reps;
  std::vector<std::pair<std::string, std::string>> runs;  // point id, run directory
  const std::string experiment_dir = fs::absolute(plan.experiment().path).parent_path().lexically_normal().string();
  const std::string launch_dir = fs::current_path().string();
  for (const std::size_t i : spread_sample(total, o.dry_run_sample)) {
    throw_if_stopped("rendering the dry run's job scripts");
    const matrix::Point& point = plan.points()[i / reps];
    const int rep = static_cast<int>(i % reps);
    store::RunRecord run;
    run.point_id = point.id;
    run.repetition = rep;
    const std::string run_dir = attempt_dir(dir.string(), run, 1);
    make_directories(run_dir);
    write_script(run_dir + "/run.sh", plan.render_script(point, RunContext{label, 0, rep, 1, run_dir, experiment_dir, launch_dir}));
    runs.emplace_back(point.id, run_dir);
  }
  RunSummary s;
  s.label = label;
  s.run_root = dir.string();
  s.planned = total;
  s.scripts_written = runs.size();
  if (sched::is_batch(plan.experiment().executor)) s.arrays = dry_run_arrays(o, plan, label, dir, runs, s.array_cut);
  return s;
}

}  // namespace sweep::runner
