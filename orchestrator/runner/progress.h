#pragma once
// The progress display of a campaign: done/failed/running/(queued)/remaining and an ETA. On a
// terminal one line redrawn in place at most ten times a second; in a log (a batch job's output, a
// cron mail) one timestamped line per change, at most one a minute, and the last state at the end.
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include "util/clock.h"

namespace sweep::runner {

struct Counts {
  std::size_t done = 0;       // succeeded in this or an earlier invocation
  std::size_t failed = 0;     // failed with no retry left
  std::size_t running = 0;
  std::size_t remaining = 0;  // not yet started (for Slurm: not yet submitted)
  std::optional<std::size_t> queued;  // Slurm only: submitted, waiting in the queue

  friend bool operator==(const Counts&, const Counts&) = default;
};

/// "done 12, failed 1, running 2, remaining 85, ETA 0:41" ("..., running 2, queued 40, remaining 45,
/// ETA ..." for Slurm). `eta_s` < 0 prints "ETA --".
std::string progress_line(const Counts& c, double eta_s);

enum class ProgressMode {
  off,
  terminal,  // redraw one line in place
  log,       // a timestamped line per change, at most one a minute
};

class Progress {
 public:
  /// `clock` must outlive the Progress (the default is the system's).
  Progress(std::FILE* out, ProgressMode mode, const Clock& clock = system_clock());
  /// Shows `counts` as the mode says (`force`: now, whatever the rate limit; used at the end).
  /// `finished_here` counts the runs this invocation has finished, for the rate behind the ETA.
  void update(const Counts& counts, std::size_t finished_here, bool force = false);
  /// Ends the line (if anything was drawn on a terminal).
  void finish();

 private:
  static const Clock& system_clock();

  std::FILE* out_;
  ProgressMode mode_;
  const Clock& clock_;
  bool drawn_ = false;
  std::optional<Counts> logged_;  // what the last log line said
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace sweep::runner
