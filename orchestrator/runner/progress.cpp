#include "runner/progress.h"

#include <fmt/chrono.h>
#include <fmt/core.h>


namespace sweep::runner {

std::string progress_line(const Counts& c, double eta_s) {
  std::string eta = "--";
  if (eta_s >= 0) {
    const auto s = static_cast<long long>(eta_s + 0.5);
    eta = s >= 3600 ? fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60) : fmt::format("{}:{:02}", s / 60, s % 60);
  }
  const std::string queued = c.queued ? fmt::format(", queued {}", *c.queued) : "";
  return fmt::format("done {}, failed {}, running {}{}, remaining {}, ETA {}", c.done, c.failed, c.running, queued,
                     c.remaining, eta);
}

const Clock& Progress::system_clock() {
  static const SystemClock clock;
  return clock;
}

Progress::Progress(std::FILE* out, ProgressMode mode, const Clock& clock)
    : out_(out), mode_(mode), clock_(clock), start_(clock.steady()), last_(start_) {}

void Progress::update(const Counts& counts, std::size_t finished_here, bool force) {
  if (mode_ == ProgressMode::off) return;
  const auto now = clock_.steady();
  const auto since_last = now - last_;
  if (mode_ == ProgressMode::terminal && !force && drawn_ && since_last < std::chrono::milliseconds(100)) return;
  if (mode_ == ProgressMode::log &&
      (logged_ == counts || (!force && logged_ && since_last < std::chrono::minutes(1))))
    return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double left = static_cast<double>(counts.remaining + counts.running + counts.queued.value_or(0));
  const double eta = finished_here > 0 ? left * elapsed / static_cast<double>(finished_here) : -1;
  if (mode_ == ProgressMode::log) {
    fmt::print(out_, "sweep: {:%Y-%m-%dT%H:%M:%SZ} {}\n", fmt::gmtime(std::chrono::system_clock::to_time_t(clock_.wall())),
               progress_line(counts, eta));
    logged_ = counts;
  } else {
    fmt::print(out_, "\r\033[K[sweep] {}", progress_line(counts, eta));
    drawn_ = true;
  }
  std::fflush(out_);
}

void Progress::finish() {
  if (drawn_) fmt::print(out_, "\n");
  drawn_ = false;
}

}  // namespace sweep::runner
