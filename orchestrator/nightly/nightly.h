#pragma once
// `sweep nightly <experiment>`: one regression check, safe to run from cron or scrontab (docs/nightly.md).
//
//   1. Runs the campaign labelled nightly-<experiment name>-<date>, or carries on with it when it exists
//      (a detached Slurm campaign is collected; a finished one is only reported). Each experiment has
//      its own series and pin (nightly-<name>); a database that holds an experiment's nights as
//      nightly-<date> goes on with those labels and the pin "nightly". A night is never another
//      experiment's campaign (Error(usage)).
//   2. Writes its report (reports/<label>/), with the history of the nights up to this one (one line
//      per night per compared metric, trend figures and change points), and, against the campaign pinned as the baseline `baseline`,
//      nightly.txt (the comparison and its verdicts) and nightly.junit.xml. With no such pin yet, this
//      campaign becomes the baseline.
//   3. Prints a line per change point of that history (where a metric of a point shifted for good).
//   4. Returns the exit code (util/exit_codes.h; docs/nightly.md#exit-codes): 0 passed (or still queued,
//      just pinned, or undecided: every comparison inconclusive), 1 regressed (or, with
//      fail_on_inconclusive, an inconclusive verdict), 7 could not compare (something the baseline had
//      is missing tonight, nothing was compared, or the pinned baseline's points differ), 8 the campaign
//      itself failed (a run failed after its retries), whatever the other options; 2 the pinned baseline
//      ran on other hardware (its hardware key's values differ from tonight's: report/hardware_change.h)
//      and allow_hardware_change is not set; with it, the change is printed first.
#include <string>
#include <vector>

#include "runner/run_campaign.h"
#include "stats/comparison.h"

namespace sweep::nightly {

struct NightlyOptions {
  runner::RunOptions run;             // experiment, --set values, paths, executor, jobs, detach ...
  std::string date;                   // YYYY-MM-DD; "" = today (UTC)
  std::string baseline;               // the pinned baseline's name; "" = the series' (nightly-<name>)
  std::string reports_dir = "reports";
  std::vector<std::string> metrics;   // compared; empty = every metric both campaigns have
  stats::CompareOptions compare;
  bool threshold_given = false;  // compare.threshold for every metric, over the experiment's thresholds:
  bool figures = true;                // gnuplot figures in the report
  std::size_t history_nights = 30;    // the report's history: this many nights up to this one
  std::size_t extend_budget = 0;      // runs tonight's campaign may get to decide inconclusive verdicts (not detached)
  bool fail_on_inconclusive = false;  // an inconclusive verdict fails the night (exit 1)
  std::vector<std::string> hardware_key;  // empty: run.site's hardware_key, else spec::default_hardware_key()
  bool allow_hardware_change = false;     // compare with a pinned baseline from other hardware
};

enum class Outcome { passed, pending, pinned, undecided, inconclusive, regressed, incomparable, failed, other_hardware };

struct NightlyResult {
  std::string label;
  Outcome outcome = Outcome::passed;
  std::string summary;  // what to print: a verdict line, the regressed metrics, the history's change points
  std::vector<std::string> figure_errors;  // "name: why" per figure of the report that gnuplot did not draw
  /// The gate's exit code; a night that passes its gate but whose report lacks a figure exits 6 (io),
  /// as `sweep report` does.
  int exit_code() const;
};

/// Error(usage) for a date not of the form YYYY-MM-DD, or a night's label that another experiment's
/// campaign holds; the loader's, runner's and report's errors otherwise.
NightlyResult run_nightly(const NightlyOptions& options);

}  // namespace sweep::nightly
