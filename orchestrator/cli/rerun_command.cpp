// sweep rerun <campaign> [--where name=value]... [--state failed|succeeded|all] [--run RUN]... [-j N]
#include <fmt/core.h>
#include <unistd.h>

#include <thread>

#include "cli/command.h"
#include "cli/stop_signals.h"
#include "cli/summary.h"
#include "runner/rerun.h"

namespace sweep::cli {
namespace {

/// The options of a command that drives the campaign afterwards, as `sweep run --resume` takes them.
void add_drive_options(CLI::App& sub, runner::RunOptions& run) {
  run.template_dir = default_template_dir();
  sub.add_option("--jobs,-j", run.jobs, "Local runs in parallel")->capture_default_str()->check(CLI::PositiveNumber);
  sub.add_option("--templates", run.template_dir, "Job-script template directory")
      ->capture_default_str()->each([&r = run](const std::string&) { r.templates_given = true; });
  add_slurm_options(sub, run);
  sub.add_flag("--detach", run.detach, "Slurm: submit and exit; follow up with sweep collect / status / cancel");
}

void prepare_drive(runner::RunOptions& run, const Paths& paths) {
  run.results_dir = paths.results();
  run.db_path = paths.db();
  run.site = paths.site();
  run.progress = ::isatty(STDERR_FILENO) != 0;
  run.progress_log = !run.progress;
}

}  // namespace

void add_rerun(CLI::App& sub, Action& action) {
  struct Options {
    runner::RunOptions run;
    Paths paths;
    std::string label;
    std::vector<std::string> where;
    std::string state;
    runner::RunSelection selection;
  };
  auto o = std::make_shared<Options>();
  sub.add_option("campaign", o->label, "Campaign label")->required();
  sub.add_option("--where", o->where, "Only the points with this parameter value: name=value (repeatable, all must hold)");
  sub.add_option("--state", o->state, "Which runs: failed (the default), succeeded or all (the default with --run)")
      ->check(CLI::IsMember({"failed", "succeeded", "all"}));
  sub.add_option("--run", o->selection.runs,
                 "Only this run: <point id>.rep<N> as sweep show lists it, a point id (every repetition) or a run id (repeatable)");
  add_drive_options(sub, o->run);
  o->paths.add_to(sub);
  sub.callback([o, &action] {
    action = [o] {
      install_stop_signals();
      for (const auto& w : o->where) o->selection.where.push_back(runner::parse_where(w));
      o->selection.state = !o->state.empty() ? o->state : o->selection.runs.empty() ? "failed" : "all";
      prepare_drive(o->run, o->paths);
      return print_summary(runner::rerun_campaign(o->run, o->label, o->selection));
    };
  });
}

void add_extend(CLI::App& sub, Action& action) {
  struct Options {
    runner::RunOptions run;
    Paths paths;
    std::string label;
    std::vector<std::string> where;
    int repetitions = 0;
  };
  auto o = std::make_shared<Options>();
  sub.add_option("campaign", o->label, "Campaign label")->required();
  sub.add_option("--repetitions,-r", o->repetitions, "Repetitions to add to each point")->required()->check(CLI::PositiveNumber);
  sub.add_option("--where", o->where, "Only the points with this parameter value: name=value (repeatable, all must hold)");
  add_drive_options(sub, o->run);
  o->paths.add_to(sub);
  sub.callback([o, &action] {
    action = [o] {
      install_stop_signals();
      runner::RunSelection selection;
      for (const auto& w : o->where) selection.where.push_back(runner::parse_where(w));
      prepare_drive(o->run, o->paths);
      return print_summary(runner::extend_campaign_by(o->run, o->label, o->repetitions, selection));
    };
  });
}

}  // namespace sweep::cli
