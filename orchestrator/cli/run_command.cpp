// sweep run <experiment.yaml> [--label L] [--jobs N] [--order O] [--timeout S] [--dry-run] [--max-points N]   |   sweep run --resume L
#include <fmt/core.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <memory>

#include "cli/campaign_forecast.h"
#include "cli/command.h"
#include "cli/overrides.h"
#include "cli/stop_signals.h"
#include "cli/summary.h"
#include "forecast/records.h"
#include "report/report_check.h"
#include "runner/run_campaign.h"
#include "util/error.h"
#include "util/exit_codes.h"
#include "util/strings.h"

namespace sweep::cli {
namespace {

/// The summary, after a line saying that a closed terminal (SIGHUP) stopped the run.
int summarize(const runner::RunSummary& s, bool dry_run) {
  if (s.interrupted && stop_signal() == SIGHUP)
    fmt::print(stderr, "sweep: the terminal closed (SIGHUP); stopping as on Ctrl-C (run a long campaign under tmux, "
                       "screen or nohup, or with --detach: docs/slurm.md#leaving-a-campaign-running)\n");
  return print_summary(s, dry_run);
}

struct Options {
  runner::RunOptions run;
  Paths paths;
  std::vector<std::string> sets;
  double timeout_s = 0;
  std::string order;  // --order: the same as --set order=...
  std::string budget;  // --budget: "" = the site's
  std::vector<std::string> budget_words;  // --budget N gpu-hours: one or two words
};

/// RunOptions::forecast: the campaign's forecast, its totals line on stderr, refused over the budget.
void set_forecast(const std::shared_ptr<Options>& o) {
  o->run.forecast = [o](const runner::CampaignPlan& plan) {
    const auto budget = budget_in_force(o->budget, o->run.site);
    const CampaignForecast f = forecast_campaign(
        plan, {o->run.db_path, o->run.timeout_s, campaign_concurrency(plan.experiment(), o->run.jobs, o->run.max_running),
                   model::merge_interconnects(o->run.site.interconnects), o->run.site.name});
    fmt::print(stderr, "sweep: {}\n", forecast::totals_line(f.totals, f.concurrency));
    require_within(budget, f);
    return forecast::to_records(f.points);
  };
}

/// `sweep run`'s options, into `o` (which outlives the parse).
void add_options(CLI::App& sub, const std::shared_ptr<Options>& o) {
  o->run.template_dir = default_template_dir();
  sub.add_option("experiment", o->run.experiment_path, "Experiment YAML file");
  sub.add_option("--set", o->sets, "Override a matrix key or top-level value: key=value (repeatable)");
  sub.add_option("--label", o->run.label, "Campaign label (default: <experiment name>-<UTC time>)");
  sub.add_option("--resume", o->run.resume, "Resume the campaign with this label, taking its experiment from the database");
  sub.add_option("--jobs,-j", o->run.jobs,
                 "Local runs at once (default 1: a benchmark measures one run at a time; with resources.gpus each "
                 "concurrent run gets its own GPUs)")
      ->capture_default_str()->check(CLI::PositiveNumber);
  sub.add_option("--order", o->order,
                 "The order runs start in: interleaved (default: repetition 0 of every point, then 1, ...), grouped, "
                 "random (the same as --set order=...; a seed: --set 'order={kind: random, seed: 7}')")
      ->check(CLI::IsMember({"interleaved", "grouped", "random"}));
  sub.add_option("--timeout", o->timeout_s,
                 "Per-run time limit in seconds (overrides resources.time; on Slurm, the time limit (#SBATCH --time) "
                 "of the jobs this invocation submits)")
      ->check(CLI::PositiveNumber);
  sub.add_option("--templates", o->run.template_dir, "Job-script template directory")
      ->capture_default_str()->each([&r = o->run](const std::string&) { r.templates_given = true; });
  sub.add_flag("--dry-run", o->run.dry_run, "Render the job scripts and exit without running or recording anything");
  sub.add_option("--dry-run-sample", o->run.dry_run_sample,
                 "--dry-run renders at most N job scripts, spread evenly over the runs (0: every one)")
      ->capture_default_str();
  sub.add_option("--max-points", o->run.max_points,
                 "Refuse a new campaign whose matrix has more points (a typo's guard: every point is kept)")
      ->capture_default_str()->check(CLI::PositiveNumber);
  sub.add_option("--executor", o->run.executor, "Run on this executor instead of the experiment's")
      ->check(CLI::IsMember(executor_names()));
  add_slurm_options(sub, o->run);
  sub.add_option("--budget", o->budget_words, "Refuse (exit 2, before anything is created) a campaign whose upper forecast "
                                        "exceeds N gpu-hours or N node-hours; none lifts the site's (docs/forecasts.md)")->expected(1, 2);
  sub.add_flag("--detach", o->run.detach, "Slurm: submit and exit; follow up with sweep collect / status / cancel");
  o->paths.add_to(sub);
}

}  // namespace

void add_run(CLI::App& sub, Action& action) {
  auto o = std::make_shared<Options>();
  add_options(sub, o);
  sub.callback([o, &action] {
    action = [o] {
      // First of all: a signal stops planning too (runner/stop.h), so a huge matrix can be interrupted.
      install_stop_signals();  // SIGHUP too (a closed ssh session): stop as on Ctrl-C, saying what stays queued
      if (o->run.experiment_path.empty() == o->run.resume.empty())
        throw Error(ErrorKind::usage, "give either an experiment file or --resume <label>");
      if (!o->run.resume.empty() && (!o->sets.empty() || !o->run.label.empty() || !o->order.empty()))
        throw Error(ErrorKind::usage, "--resume takes the experiment, --set values, order and label from the database");
      if (!o->order.empty()) o->sets.push_back("order=" + o->order);
      o->run.overrides = parse_overrides(o->sets);
      o->run.results_dir = o->paths.results();
      o->run.site = o->paths.site();
      o->run.check_report = report::check_experiment_report;
      o->run.db_path = o->paths.db();
      if (o->timeout_s > 0) o->run.timeout_s = o->timeout_s;
      o->budget = join(o->budget_words, " ");
      if (!o->run.resume.empty() && !o->budget.empty())
        throw Error(ErrorKind::usage, "--resume keeps the campaign's first forecast: --budget applies to a new campaign");
      set_forecast(o);
      o->run.progress = ::isatty(STDERR_FILENO) != 0;
      o->run.progress_log = !o->run.progress;
      return summarize(runner::run_campaign(o->run), o->run.dry_run);
    };
  });
}

}  // namespace sweep::cli
