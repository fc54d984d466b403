// sweep nightly <experiment.yaml> [--set k=v] [--date YYYY-MM-DD] [--baseline NAME] [--metrics m,..]
//               [--threshold 0.05] [--fail-on inconclusive] [--detach] ...
// Exit 0 passed (or still queued, just pinned as the baseline, or undecided), 1 regressed, 7 could not
// compare, 8 the campaign failed, 2 the pinned baseline ran on other hardware without --allow-hardware-change
// (docs/nightly.md#exit-codes).
#include <fmt/core.h>


#include "cli/command.h"
#include "cli/stop_signals.h"
#include "cli/overrides.h"
#include "cli/summary.h"
#include "nightly/nightly.h"
#include "spec/hardware_key.h"
#include "util/sinks.h"

namespace sweep::cli {

void add_nightly(CLI::App& sub, Action& action) {
  struct Options {
    nightly::NightlyOptions nightly;
    Paths paths;
    std::vector<std::string> sets;
    bool no_figures = false;
    std::string fail_on;
    std::vector<std::string> hardware_key;
  };
  auto o = std::make_shared<Options>();
  runner::RunOptions& run = o->nightly.run;
  run.template_dir = default_template_dir();
  sub.add_option("experiment", run.experiment_path, "Experiment YAML file")->required();
  sub.add_option("--set", o->sets, "Override a matrix key or top-level value: key=value (repeatable)");
  sub.add_option("--date", o->nightly.date, "The night, YYYY-MM-DD (default: today, UTC): the label is nightly-<experiment name>-<date>");
  sub.add_option("--baseline", o->nightly.baseline,
                 "Name of the pinned baseline (default: nightly-<experiment name>; the first night pins itself)");
  sub.add_option("--fail-on", o->fail_on, "Also fail (exit 1) when a verdict is inconclusive")
      ->check(CLI::IsMember({"inconclusive"}));
  sub.add_option("--metrics", o->nightly.metrics, "Metrics to compare (default: all both have)")->delimiter(',');
  auto* threshold = sub.add_option("--threshold", o->nightly.compare.threshold,
                                   "Relative change below which a significant change does not count (0.05 = 5%), for "
                                   "every metric; without it, the experiment's thresholds: apply, and 0 elsewhere")
                         ->check(CLI::Range(0.0, 10.0))
                         ->capture_default_str();
  sub.add_option("--alpha", o->nightly.compare.alpha, "Significance level")->check(CLI::Range(1e-6, 0.5))->capture_default_str();
  add_correction_option(sub, o->nightly.compare);
  sub.add_option("--jobs,-j", run.jobs, "Local runs at once (default 1, as sweep run)")->capture_default_str()->check(CLI::PositiveNumber);
  sub.add_option("--executor", run.executor, "Run on this executor instead of the experiment's")
      ->check(CLI::IsMember(executor_names()));
  sub.add_option("--templates", run.template_dir, "Job-script template directory")->capture_default_str();
  sub.add_option("--max-points", run.max_points, "Refuse a new night's campaign whose matrix has more points")
      ->capture_default_str()->check(CLI::PositiveNumber);
  add_slurm_options(sub, run);
  sub.add_flag("--detach", run.detach, "Slurm: submit and exit 0; the next call collects, compares and reports");
  sub.add_flag("--no-figures", o->no_figures, "Do not run gnuplot for the report's figures");
  sub.add_option("--extend-budget", o->nightly.extend_budget,
                 "Run up to N more runs of tonight's campaign where a verdict is inconclusive, as the power hints ask, "
                 "then compare again (not with --detach)")
      ->check(CLI::Range(0, 1000000));
  sub.add_option("--hardware-key", o->hardware_key,
                 "Provenance keys whose values make the pinned baseline other hardware (default: the site file's "
                 "hardware_key, else gpu.model,gpu.count,cpu_model)")
      ->delimiter(',');
  sub.add_flag("--allow-hardware-change", o->nightly.allow_hardware_change,
               "Compare with a pinned baseline from other hardware (else exit 2); the change is printed first");
  sub.add_option("--history-nights", o->nightly.history_nights, "The report's history: how many nights up to this one")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  o->paths.add_to(sub, true);
  sub.callback([o, threshold, &action] {
    o->nightly.threshold_given = threshold->count() > 0;
    action = [o] {
      install_stop_signals();
      nightly::NightlyOptions n = o->nightly;
      n.run.overrides = parse_overrides(o->sets);
      n.run.results_dir = o->paths.results();
      n.run.site = o->paths.site();
      n.run.db_path = o->paths.db();
      n.reports_dir = o->paths.reports();
      n.figures = !o->no_figures;
      n.fail_on_inconclusive = o->fail_on == "inconclusive";
      if (!o->hardware_key.empty()) n.hardware_key = spec::parse_hardware_key(o->hardware_key, "--hardware-key");
      const nightly::NightlyResult r = nightly::run_nightly(n);
      fmt::print("{}", terminal_text(r.summary, true));
      return r.exit_code();
    };
  });
}

}  // namespace sweep::cli
