#pragma once
// What `sweep run`, `collect` and `cancel` print when they end, and their exit code.
#include <CLI/CLI.hpp>

#include "runner/run_campaign.h"
#include "stats/comparison.h"

namespace sweep::cli {

/// The command to type next, as one line: `sweep show <label>` and the first failed run's output file
/// (the one its reason quotes, else stderr) when a run failed, `sweep collect <label>` while runs are
/// queued, else `sweep report <label>`; with `--db PATH` when the database is not results/sweep.db.
std::string next_step(const runner::RunSummary& s);

/// Prints the campaign's counts, why its failed runs failed (grouped by cause: report/failure_groups.h),
/// where its results are, and the command to type next (next_step); returns the exit code (util/exit_codes.h):
/// interrupted, runs_failed when any run failed, else ok.
int print_summary(const runner::RunSummary& s, bool dry_run = false);

/// `sweep cancel`'s answer: how many job arrays and tasks it cancelled (or that nothing was queued),
/// the campaign's counts and where it is. Returns 0: the cancel succeeded (a failure throws).
int print_cancelled(const runner::RunSummary& s);

/// The Slurm executor's options shared by run and collect: throttles, pending limit, poll interval.
void add_slurm_options(CLI::App& sub, runner::RunOptions& options);

/// --correction holm|bh|none, shared by compare and nightly: how the p-values of all their
/// comparisons are adjusted together (stats/multiple.h).
void add_correction_option(CLI::App& sub, stats::CompareOptions& options);

/// A command's result text to standard output, or with --output to that file ("wrote FILE" on stderr);
/// Error(io) when it cannot be written.
void print_or_write(const std::string& text, const std::string& output);

}  // namespace sweep::cli
