#pragma once
// The one-line progress display of `sweep run`: done/failed/running/remaining and an ETA, redrawn in
// place at most ten times a second. Silent unless enabled (the CLI enables it only on a terminal).
#include <chrono>
#include <cstdio>
#include <string>

namespace sweep::runner {

struct Counts {
  std::size_t done = 0;       // succeeded in this or an earlier invocation
  std::size_t failed = 0;
  std::size_t running = 0;
  std::size_t remaining = 0;  // not yet started
};

/// "done 12, failed 1, running 2, remaining 85, ETA 0:41". `eta_s` < 0 prints "ETA --".
std::string progress_line(const Counts& c, double eta_s);

class Progress {
 public:
  Progress(std::FILE* out, bool enabled);
  /// Redraws if enabled and at least 100 ms passed since the last draw (or `force`).
  /// `finished_here` counts the runs this invocation has finished, for the rate behind the ETA.
  void update(const Counts& counts, std::size_t finished_here, bool force = false);
  /// Ends the line (if anything was drawn).
  void finish();

 private:
  std::FILE* out_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace sweep::runner
