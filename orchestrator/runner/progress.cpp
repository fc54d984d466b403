#include "runner/progress.h"

#include <fmt/core.h>

namespace sweep::runner {

std::string progress_line(const Counts& c, double eta_s) {
  std::string eta = "--";
  if (eta_s >= 0) {
    const auto s = static_cast<long long>(eta_s + 0.5);
    eta = s >= 3600 ? fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60) : fmt::format("{}:{:02}", s / 60, s % 60);
  }
  return fmt::format("done {}, failed {}, running {}, remaining {}, ETA {}", c.done, c.failed, c.running, c.remaining,
                     eta);
}

Progress::Progress(std::FILE* out, bool enabled)
    : out_(out), enabled_(enabled), start_(std::chrono::steady_clock::now()), last_(start_) {}

void Progress::update(const Counts& counts, std::size_t finished_here, bool force) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && drawn_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double left = static_cast<double>(counts.remaining + counts.running);
  const double eta = finished_here > 0 ? left * elapsed / static_cast<double>(finished_here) : -1;
  fmt::print(out_, "\r\033[K[sweep] {}", progress_line(counts, eta));
  std::fflush(out_);
  drawn_ = true;
}

void Progress::finish() {
  if (drawn_) fmt::print(out_, "\n");
  drawn_ = false;
}

}  // namespace sweep::runner
