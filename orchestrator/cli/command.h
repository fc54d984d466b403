#pragma once
// The subcommand table of `sweep`. Each subcommand lives in its own file, registers its options on a
// CLI11 subcommand, and returns an action that main() runs after parsing. No logic lives here: the
// actions call runner/, report/, matrix/ and store/.
#include <CLI/CLI.hpp>

#include "spec/site.h"
#include "store/database_path.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace sweep::cli {

/// Runs the parsed subcommand and returns the process exit code (util/exit_codes.h).
using Action = std::function<int()>;

/// Options every subcommand that touches results shares, and the site file (spec/site.h) they honour.
struct Paths {
  std::string results_dir;  // --results; "" = the site's `results`, else "results"
  std::string db_path;      // "" = <results()>/sweep.db (store::database_path)
  std::string reports_dir;  // --reports; "" = the site's `reports`, else "reports"
  std::string site_path;    // --site; "" = looked up (spec::find_site)
  bool allow_shared = false;  // --allow-shared: trust paths shared by group (util/safe_files.h)
  std::string results() const;
  std::string db() const { return store::database_path(results(), db_path); }
  std::string reports() const;
  /// The site file in use, loaded on first use (Error when it is invalid).
  const spec::Site& site() const;
  void add_to(CLI::App& app, bool with_reports = false);
  /// --site alone, for subcommands that read no results (`sweep plan`).
  void add_site_to(CLI::App& app);

 private:
  mutable std::shared_ptr<const spec::Site> site_;
};

/// The job-script template directory: $SWEEP_TEMPLATES, else an installed sweep's share/sweep/templates,
/// else the source tree's templates/ (util/resources.h).
std::string default_template_dir();

/// The executor names --executor takes (sched/executors.h).
std::vector<std::string> executor_names();

struct Command {
  const char* name;
  const char* help;
  void (*add)(CLI::App& sub, Action& action);
};

void add_plan(CLI::App& sub, Action& action);
void add_run(CLI::App& sub, Action& action);
void add_report(CLI::App& sub, Action& action);
void add_ls(CLI::App& sub, Action& action);
void add_show(CLI::App& sub, Action& action);
void add_status(CLI::App& sub, Action& action);
void add_logs(CLI::App& sub, Action& action);
void add_collect(CLI::App& sub, Action& action);
void add_cancel(CLI::App& sub, Action& action);
void add_model(CLI::App& sub, Action& action);
void add_compare(CLI::App& sub, Action& action);
void add_check(CLI::App& sub, Action& action);
void add_export(CLI::App& sub, Action& action);
void add_import(CLI::App& sub, Action& action);
void add_baseline(CLI::App& sub, Action& action);
void add_nightly(CLI::App& sub, Action& action);
void add_site(CLI::App& sub, Action& action);
void add_reparse(CLI::App& sub, Action& action);
void add_rerun(CLI::App& sub, Action& action);
void add_extend(CLI::App& sub, Action& action);
void add_rm(CLI::App& sub, Action& action);
void add_init(CLI::App& sub, Action& action);
void add_schema(CLI::App& sub, Action& action);

inline constexpr Command kCommands[] = {
    {"init", "Write a commented experiment to start from (your own Python script, torchrun on Slurm, collbench, trainbench)", add_init},
    {"plan", "Validate an experiment and print its expanded points without running anything", add_plan},
    {"run", "Run (or resume) a campaign of an experiment", add_run},
    {"reparse", "Read a campaign's stored logs again with its (or a corrected) metrics: section; all values replaced at once", add_reparse},
    {"rerun", "Run chosen runs of a campaign again (by --where, --state, --run), each as a new attempt", add_rerun},
    {"extend", "Add repetitions to a campaign's points (--repetitions N, --where) and run them", add_extend},
    {"rm", "Remove a campaign: its database rows and its run directories (asks, or --yes)", add_rm},
    {"report", "Render a campaign into reports/<campaign>/: report.md, .html, .json, .tex (booktabs), a .tex and a CSV per table, gnuplot figures with their paper versions", add_report},

    {"ls", "List the campaigns in the results database", add_ls},
    {"show", "Show one campaign in detail: provenance, per-point progress, failures", add_show},
    {"status", "Show a campaign's run counts per state and per point, and the runs executing now with their output", add_status},
    {"logs", "Print (or follow, with --follow) the output of one run of a campaign", add_logs},
    {"collect", "Slurm: ingest what a detached campaign finished, retry, submit more, and exit (cron-safe)", add_collect},
    {"cancel", "Slurm: cancel everything a campaign has queued", add_cancel},
    {"export", "Write every metric value of a campaign as one long table (CSV or JSON lines) for pandas or R; with --bundle, the campaign alone for sweep import", add_export},
    {"import", "Take a campaign exported with export --bundle from another database (another system) into this one, as LABEL@SYSTEM", add_import},
    {"compare", "Compare two campaigns point by point: per-metric verdicts with change, CI and significance", add_compare},
    {"check", "Check a campaign against its system's references (expected values with bounds); exit 1 when one is not met", add_check},
    {"baseline", "Pin a campaign as a named baseline for comparisons (set, ls)", add_baseline},
    {"nightly", "Run tonight's regression campaign, compare it with the pinned baseline, report; exit 1 on a regression", add_nightly},
    {"site", "Show the site file in use and the effective settings (of an experiment there), each with where it came from", add_site},
    {"model", "Predict communication volume and time, epoch time and scaling factor of a parallel training run", add_model},
    {"schema", "Print the JSON Schema of the experiment format, for editors (VS Code's YAML extension)", add_schema},
};

}  // namespace sweep::cli
