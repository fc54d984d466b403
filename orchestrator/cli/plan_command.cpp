// sweep plan <experiment.yaml> [--set k=v]... [--executor E] [--site F] [--results D] [--label L] [--templates D]
//   [--format table|json|csv] [--estimate [--budget N gpu-hours|node-hours|none] [--db F] [--jobs N] [--max-running N]]
#include <fmt/core.h>

#include <cstdio>

#include "cli/campaign_forecast.h"
#include "cli/command.h"
#include "cli/overrides.h"
#include "matrix/expand.h"
#include "matrix/plan_format.h"
#include "report/report_check.h"
#include "runner/container_plan.h"
#include "runner/run_campaign.h"
#include "store/database_path.h"
#include "util/error.h"
#include "util/sinks.h"
#include "util/strings.h"

namespace sweep::cli {

void add_plan(CLI::App& sub, Action& action) {
  struct Options {
    runner::RunOptions run;
    Paths paths;
    std::vector<std::string> sets;
    std::string format = "table";
    bool estimate = false;
    std::string budget;
    std::vector<std::string> budget_words;  // --budget N gpu-hours: one or two words
    std::string db_path;
  };
  auto o = std::make_shared<Options>();
  o->run.template_dir = default_template_dir();
  sub.add_option("experiment", o->run.experiment_path, "Experiment YAML file")->required();
  sub.add_option("--set", o->sets, "Override a matrix key or top-level value: key=value (repeatable)");
  sub.add_option("--executor", o->run.executor, "Check for this executor instead of the experiment's")
      ->check(CLI::IsMember(executor_names()));
  sub.add_option("--templates", o->run.template_dir, "Job-script template directory")->capture_default_str();
  o->paths.add_site_to(sub);
  // Where `sweep run` would put the campaign: a container binds its run directories (runner::PlanDirs).
  sub.add_option("--results", o->paths.results_dir, "The results directory sweep run would use (default: the site "
                                                    "file's results, else results)");
  sub.add_option("--label", o->run.label, "The label sweep run would use (default: <experiment name>-<UTC time>)");
  sub.add_option("--format", o->format, "table, json or csv")->capture_default_str();
  sub.add_flag("--estimate", o->estimate, "The forecast: runs, GPU-hours, node-hours and wall time per point and in total "
                                          "(docs/forecasts.md)");
  sub.add_option("--budget", o->budget_words, "--estimate: refuse (exit 2) a campaign whose upper forecast exceeds N "
                                        "gpu-hours or N node-hours; none lifts the site's budget")->expected(1, 2);
  sub.add_option("--db", o->db_path, "--estimate: the database whose runs give the history (default: <results>/sweep.db)");
  sub.add_option("--jobs,-j", o->run.jobs, "--estimate: local runs at once, as sweep run --jobs")
      ->capture_default_str()->check(CLI::PositiveNumber);
  sub.add_option("--max-running", o->run.max_running, "--estimate: Slurm tasks at once, as sweep run --max-running");
  sub.callback([o, &action] {
    action = [o] {
      const auto format = matrix::plan_format_from_name(o->format);
      o->run.overrides = parse_overrides(o->sets);
      o->run.site = o->paths.site();
      o->run.results_dir = o->paths.results();
      o->run.check_report = report::check_experiment_report;
      o->budget = join(o->budget_words, " ");
      // Everything `sweep run` and `sweep report` would refuse, before any output.
      if (!o->estimate && (!o->budget.empty() || !o->db_path.empty()))
        throw Error(ErrorKind::usage, "--budget and --db go with --estimate");
      if (o->estimate && format == matrix::PlanFormat::csv) throw Error(ErrorKind::usage, "--estimate writes a table or json");
      const runner::CampaignPlan plan =
          runner::plan_campaign(o->run, o->estimate ? runner::PlanUse::estimate : runner::PlanUse::check);
      const spec::Experiment& experiment = plan.experiment();
      std::optional<CampaignForecast> forecast;
      if (o->estimate) {
        const auto budget = budget_in_force(o->budget, o->run.site);
        forecast = forecast_campaign(plan, {store::database_path(o->run.results_dir, o->db_path), std::nullopt,
                                            campaign_concurrency(experiment, o->run.jobs, o->run.max_running),
                                            model::merge_interconnects(o->run.site.interconnects), o->run.site.name});
        require_within(budget, *forecast);
      }
      // On Slurm, the expected start of the first arrays (one sbatch --test-only per resource shape).
      const auto starts = o->estimate ? expected_starts(plan, 5) : std::vector<std::pair<std::string, std::string>>{};
      const matrix::Expansion expansion(experiment);
      matrix::write_plan(stdout, experiment.name, expansion, experiment.repetitions, format,
                         forecast ? forecast::json_object(forecast->points, forecast->totals, forecast->concurrency,
                                                          starts.empty() ? "" : starts.front().second)
                                  : std::string());
      if (forecast && format == matrix::PlanFormat::table) {
        fmt::print("\n{}", forecast::text_table(forecast->points, forecast->totals, forecast->concurrency));
        for (const auto& [shape, start] : starts)
          fmt::print("expected start (sbatch --test-only, {}): {}\n", terminal_text(shape), terminal_text(start));
      }
      if (experiment.until && format == matrix::PlanFormat::table)
        fmt::print("adaptive: up to {} repetitions per point, until the 95% CI of {} is within {}% of its mean\n",
                   experiment.max_repetitions, experiment.until->metric, 100 * experiment.until->ci95_rel);
      if (const std::string line = runner::container_summary(experiment.container); !line.empty() && format == matrix::PlanFormat::table)
        fmt::print("{}\n", line);
      std::fflush(stdout);
      return 0;
    };
  });
}

}  // namespace sweep::cli
