#pragma once
// The campaign driver of `sweep run`: plan -> record -> run -> ingest, resumable at any point.
//
// Crash contract: every state change of a run is committed to the database before the next action
// (a run is marked running before its process starts; its result, metrics included, is committed in
// one transaction after it ends). A controller killed at any moment, even by SIGKILL, is resumed by
// running the same label again: runs left "running" are recorded as interrupted attempts and run
// again, succeeded runs are never run again, and the campaign ends with exactly its planned runs.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "spec/load.h"
#include "spec/site.h"

namespace sweep::runner {

struct RunOptions {
  std::string experiment_path;            // the YAML file; "" when resuming from the database
  std::vector<spec::Override> overrides;  // --set
  std::string label;                      // "" = <experiment name>-<UTC stamp>
  std::string resume;                     // --resume <label>: take the experiment from the database
  std::string results_dir = "results";    // run directories go under <results_dir>/<label>/
  std::string db_path;                    // "" = <results_dir>/sweep.db
  std::string template_dir;               // holds <executor>/run.sh.mustache
  std::size_t jobs = 1;                   // local runs in parallel
  std::optional<double> timeout_s;        // overrides resources.time
  bool dry_run = false;                   // render scripts, print where, run nothing, touch no database
  bool progress = false;                  // draw the progress line on stderr
  std::string executor;                   // --executor: overrides the experiment's ("" = keep)
  spec::Site site;                        // the site file's defaults (spec/site.h); none when its path is ""

  // Slurm executor only (runner/slurm_driver.h).
  bool detach = false;             // submit, then return; `sweep collect` carries on
  bool collect = false;            // one pass over a detached campaign: ingest, retry, submit, return
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
};

/// Runs (or resumes) a campaign. Throws sweep::Error for invalid input before anything is written.
RunSummary run_campaign(const RunOptions& options);

/// One `sweep collect` pass over a Slurm campaign: reconcile, ingest what ended, retry, submit what
/// the queue limit allows, and return. Safe to run from cron: a second controller of the same
/// campaign is refused with Error(usage) while one holds the campaign's lock.
RunSummary collect_campaign(const RunOptions& options);

/// Cancels every job the campaign has queued on the cluster and records those attempts as cancelled.
RunSummary cancel_campaign(const RunOptions& options);

/// Asks a running run_campaign() to stop starting runs, cancel the active ones and return.
/// Async-signal-safe: call it from a SIGINT/SIGTERM handler.
void request_stop();

}  // namespace sweep::runner
