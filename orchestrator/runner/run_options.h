#pragma once
// What a campaign driver is asked to do (RunOptions, from the command line and the site file) and what
// it answers (RunSummary). Shared by both drivers (run_campaign.h, batch_driver.h), the CLI and nightly.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "matrix/point_limit.h"
#include "spec/load.h"
#include "spec/site.h"
#include "store/database_path.h"
#include "store/records.h"

namespace sweep::runner {

class CampaignPlan;

struct RunOptions {
  std::string experiment_path;            // the YAML file; "" when resuming from the database
  std::vector<spec::Override> overrides;  // --set
  std::string label;                      // "" = <experiment name>-<UTC stamp>
  std::string resume;                     // --resume <label>: take the experiment from the database
  std::string results_dir{store::kDefaultResultsDir};  // run directories go under <results_dir>/<label>/
  std::string db_path;                    // "" = <results_dir>/sweep.db (store::database_path)
  std::string template_dir;               // holds <executor>/run.sh.mustache
  bool templates_given = false;           // --templates was given: it wins over a campaign's recorded templates
  std::size_t jobs = 1;                   // local runs in parallel
  std::optional<double> timeout_s;        // overrides resources.time
  bool dry_run = false;                   // render scripts, print where, run nothing, touch no database
  bool progress = false;                  // draw the progress line on stderr (a terminal)
  bool progress_log = false;              // Slurm: no terminal, so log a progress line per change, at most one a minute
  std::string executor;                   // --executor: overrides the experiment's ("" = keep)
  spec::Site site;                        // the site file's defaults (spec/site.h); none when its path is ""
  bool rerun_failed = true;               // resuming runs the failed runs again; false: pending ones only
  std::uint64_t max_points = matrix::kDefaultMaxPoints;  // a new campaign of more points is refused (matrix/point_limit.h)
  std::size_t dry_run_sample = 100;       // --dry-run writes at most this many job scripts, spread over the runs; 0 = all
  /// What `sweep report` would refuse about the experiment's `report:` section (report/report_check.h,
  /// which runner may not include: the CLI sets it), given the points' parameter names; run by
  /// plan_campaign and, but on resume, by run_campaign before anything is written. Unset: not checked.
  std::function<void(const spec::Experiment&, const std::vector<std::string>& parameters)> check_report;
  /// The campaign's forecast (docs/forecasts.md; forecast/, which runner may not include: the CLI sets
  /// it): called by run_campaign with the plan of a campaign that is not a --resume, after the plan's
  /// checks and before anything is written (a dry run's included). It returns the rows stored with the
  /// campaign if it is new (Store::create_campaign), and throws Error to refuse it (a budget). Unset: none.
  std::function<std::vector<store::ForecastRecord>(const CampaignPlan&)> forecast;

  // Batch executors only (runner/batch_driver.h).
  bool detach = false;             // submit, then return; `sweep collect` carries on
  bool collect = false;            // one pass over a detached campaign: ingest, retry, submit, return
  bool collect_reruns_failed = false;  // collect --rerun-failed: its pass submits failed and cancelled runs again,
                                       // once, as `run --resume` does (without it, only `retries:` resubmits)
  std::size_t max_running = 0;     // array throttle %N per submission; 0 = none
  std::size_t max_queued = 5000;   // tasks of this campaign in the queue at once
  double max_pending_s = 600;      // cancel a task pending this long for a reason that cannot resolve
  double poll_min_s = 1;           // the poll interval starts here and never goes below it
  double poll_max_s = 30;          // ... and backs off up to here while nothing changes
};

struct RunSummary {
  std::string label;
  std::string db_path;
  std::string run_root;
  std::size_t planned = 0;     // runs in the campaign
  std::size_t succeeded = 0;   // at the end, including those done by earlier invocations
  std::size_t failed = 0;
  std::size_t executed = 0;    // attempts started by this invocation
  bool interrupted = false;    // stopped by request_stop(); resumable
  std::size_t unfinished = 0;  // pending or running (queued on the cluster, for a detached campaign)
  std::size_t polls = 0;       // Slurm only: poll cycles run by this invocation
  std::size_t queries = 0;     // Slurm only: scheduler queries of the campaign's jobs (one per poll cycle)
  std::string repetitions;     // adaptive repetitions: how the points stand against the target; "" otherwise
  std::vector<std::string> arrays;  // a Slurm dry run: one line per job array it wrote (script, tasks, options)
  std::string array_cut;            // a Slurm dry run: the most tasks an array holds and why (runner/dry_run.h)
  std::size_t scripts_written = 0;  // a dry run: the job scripts it wrote (a sample when fewer than planned)
  std::vector<store::RunRecord> failed_runs;  // the campaign's failed runs at the end, in run order (their reasons
                                              // carry their output's tail: util/output_tail.h)
  std::vector<store::PointRecord> points;     // the campaign's points when a run failed (to name them), else none
  bool batch = false;                  // driven by a batch executor (runner/batch_driver.h)
  std::size_t on_scheduler = 0;        // batch: tasks the scheduler still held (queued or running) when the driver returned
  std::size_t cancelled_tasks = 0;     // `sweep cancel`: array tasks it cancelled ...
  std::size_t cancelled_arrays = 0;    // ... in this many job arrays
  std::size_t cancelled_unsubmitted = 0;  // ... and runs it cancelled that were not submitted yet
};

}  // namespace sweep::runner
