#include "cli/summary.h"

#include <fmt/core.h>

#include <algorithm>
#include <fstream>

#include "report/failure_groups.h"
#include "stats/multiple.h"
#include "store/database_path.h"
#include "util/exit_codes.h"
#include "util/failure_classes.h"
#include "util/sinks.h"

namespace sweep::cli {

namespace {

/// " --db <path>" when the database is not the one a plain command opens (a site's results directory aside).
std::string db_flag(const runner::RunSummary& s) { return store::is_default_database(s.db_path) ? "" : " --db " + s.db_path; }

}  // namespace

std::string next_step(const runner::RunSummary& s) {
  const std::string db = db_flag(s);
  if (!s.failed_runs.empty()) {
    const std::string stream = split_reason(s.failed_runs.front().failure_reason).stream;  // setup.log, stderr or stdout
    // Runs that failed only by their metrics are fixed without running them again (runner/reparse.h: `sweep reparse`).
    const bool by_metrics = std::any_of(s.failed_runs.begin(), s.failed_runs.end(), [](const store::RunRecord& r) {
      return r.failure_class == failure::kMissingMetric || r.failure_class == failure::kUnreducedMetric ||
             r.failure_class == failure::kCriterion;
    });
    return fmt::format("next: sweep show {}{}   (the first failed run's output: {}/{})\n"
                       "      {}\n",
                       s.label, db, s.failed_runs.front().run_dir, stream.empty() ? "stderr" : stream,
                       by_metrics ? fmt::format("a metric rule fixed: sweep reparse {}{} --from <the fixed experiment file> "
                                                "(reads the stored logs again, runs nothing)",
                                                s.label, db)
                                  : fmt::format("the cause fixed: sweep rerun {}{} (runs the failed runs again)", s.label, db));
  }
  if (s.unfinished > 0 && s.batch)
    return fmt::format("next: sweep status {0}{1} --watch   (what the scheduler says of its {2} unfinished runs)\n"
                       "      sweep collect {0}{1}   (ingest what ended, retry, submit more; safe from cron)\n"
                       "      sweep cancel {0}{1}   (take its jobs out of the queue)\n",
                       s.label, db, s.unfinished);
  if (s.unfinished > 0) return fmt::format("next: sweep collect {}{}   ({} runs still queued)\n", s.label, db, s.unfinished);
  return fmt::format("next: sweep report {}{}\n", s.label, db);
}

int print_summary(const runner::RunSummary& s, bool dry_run) {
  if (dry_run) {
    if (s.scripts_written == s.planned)
      fmt::print("dry run: rendered {} job scripts into {}\n", s.planned, s.run_root);
    else
      fmt::print("dry run: rendered a sample of {} of the {} runs' job scripts, spread evenly over them, into {} "
                 "(--dry-run-sample N renders N, 0 every one)\n",
                 s.scripts_written, s.planned, s.run_root);
    if (!s.arrays.empty())
      fmt::print("as {} Slurm job arrays, one per resource shape, {}:\n", s.arrays.size(), s.array_cut);
    for (const auto& line : s.arrays) fmt::print("  {}\n", line);
    return 0;
  }
  fmt::print("campaign {}: {} runs planned, {} succeeded, {} failed, {} unfinished ({} attempts started now)\n",
             s.label, s.planned, s.succeeded, s.failed, s.unfinished, s.executed);
  if (!s.repetitions.empty()) fmt::print("{}\n", s.repetitions);
  if (s.polls > 0)
    fmt::print("slurm: {} poll cycles, {} queries of this campaign's own jobs\n", s.polls, s.queries);
  fmt::print("{}", terminal_text(report::failure_summary(s.failed_runs, s.points), true));
  fmt::print("database: {}\nruns:     {}\n", s.db_path, s.run_root);
  if (s.interrupted) {
    if (s.on_scheduler > 0)  // the queue is the cluster's: stopping the controller cancels nothing
      fmt::print(stderr, "sweep: interrupted; the campaign's {1} task{2} on the scheduler stay{3} queued and run{3}; follow "
                         "them with sweep collect {0} (or sweep run --resume {0}), or take them out with sweep cancel {0}\n",
                 s.label, s.on_scheduler, s.on_scheduler == 1 ? "" : "s", s.on_scheduler == 1 ? "s" : "");
    fmt::print(stderr, "sweep: interrupted; resume with: sweep run --resume {}\n", s.label);
    return static_cast<int>(ExitCode::interrupted);
  }
  fmt::print("{}", terminal_text(next_step(s), true));
  return s.failed > 0 ? static_cast<int>(ExitCode::runs_failed) : 0;
}

int print_cancelled(const runner::RunSummary& s) {
  if (s.cancelled_tasks == 0 && s.cancelled_unsubmitted == 0)
    fmt::print("campaign {}: nothing was queued, nothing cancelled\n", s.label);
  if (s.cancelled_tasks > 0)
    fmt::print("campaign {}: cancelled {} job array{} ({} task{}); those attempts are recorded as cancelled\n", s.label,
               s.cancelled_arrays, s.cancelled_arrays == 1 ? "" : "s", s.cancelled_tasks, s.cancelled_tasks == 1 ? "" : "s");
  if (s.cancelled_unsubmitted > 0)
    fmt::print("campaign {}: {} run{} not submitted yet recorded as cancelled (sweep collect will not submit them)\n",
               s.label, s.cancelled_unsubmitted, s.cancelled_unsubmitted == 1 ? "" : "s");
  fmt::print("{} runs planned, {} succeeded, {} failed (cancelled included), {} unfinished\ndatabase: {}\nruns:     {}\n",
             s.planned, s.succeeded, s.failed, s.unfinished, s.db_path, s.run_root);
  const std::string db = db_flag(s);
  fmt::print("{}", terminal_text(fmt::format("next: sweep run --resume {}{} --detach   (submits the cancelled and failed runs "
                                             "again), or sweep report {}{}\n", s.label, db, s.label, db), true));
  return 0;
}

void add_slurm_options(CLI::App& sub, runner::RunOptions& o) {
  sub.add_option("--max-running", o.max_running, "Slurm: at most N tasks of each job array run at once (%N)");
  sub.add_option("--max-queued", o.max_queued, "Slurm: at most N of the campaign's tasks in the queue at once")
      ->capture_default_str()->check(CLI::PositiveNumber);
  sub.add_option("--max-pending", o.max_pending_s,
                 "Slurm: cancel a task pending this many seconds for a reason that cannot resolve")
      ->capture_default_str()->check(CLI::NonNegativeNumber);
  sub.add_option("--poll-min", o.poll_min_s, "Slurm: shortest poll interval in seconds (the floor)")
      ->capture_default_str()->check(CLI::Range(0.05, 3600.0));
  sub.add_option("--poll-max", o.poll_max_s, "Slurm: longest poll interval in seconds")
      ->capture_default_str()->check(CLI::Range(0.05, 3600.0));
}

void add_correction_option(CLI::App& sub, stats::CompareOptions& options) {
  sub.add_option_function<std::string>(
         "--correction",
         [&options](const std::string& name) { options.correction = *stats::parse_correction(name); },
         "Multiple comparisons: holm (default; no false verdict among all, at alpha), bh (false discoveries "
         "at most alpha of the verdicts) or none")
      ->check(CLI::IsMember({"holm", "bh", "none"}));
}

void print_or_write(const std::string& text, const std::string& output) {
  if (output.empty()) {
    fmt::print("{}", terminal_text(text, true));
    return;
  }
  std::ofstream out(output, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush()) throw Error(ErrorKind::io, fmt::format("cannot write \"{}\"", output));
  fmt::print(stderr, "wrote {}\n", output);
}

}  // namespace sweep::cli
