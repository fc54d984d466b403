#pragma once
// A test double of the clock seam (util/clock.h): time moves only when the code under test waits, and
// then at once, so a driver that backs off for minutes runs in milliseconds. Its monotonic time starts
// well after the epoch (a zero time point means "never" to some callers).
#include <chrono>

#include "util/clock.h"

namespace sweep::testing {

class ManualClock final : public Clock {
 public:
  std::chrono::system_clock::time_point wall() const override { return wall_start_ + elapsed_; }
  std::chrono::steady_clock::time_point steady() const override {
    return std::chrono::steady_clock::time_point(std::chrono::hours(1000)) + elapsed_;
  }
  /// Advances both clocks by `d` and returns at once.
  void sleep_for(std::chrono::duration<double> d) const override {
    elapsed_ += std::chrono::duration_cast<std::chrono::nanoseconds>(d);
  }
  /// The time waited so far.
  double elapsed_s() const { return std::chrono::duration<double>(elapsed_).count(); }

 private:
  std::chrono::system_clock::time_point wall_start_ = std::chrono::system_clock::now();
  mutable std::chrono::nanoseconds elapsed_{0};
};

}  // namespace sweep::testing
