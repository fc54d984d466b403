#pragma once
// The poll interval of a controller that watches a scheduler: it starts at the floor, grows by half
// after every cycle in which nothing changed or the scheduler could not be reached, up to the
// maximum, and drops back to the floor when something changes. Pure.
#include <algorithm>

namespace sweep::runner {

class PollBackoff {
 public:
  PollBackoff(double floor_s, double max_s) : floor_(floor_s), max_(std::max(floor_s, max_s)), current_(floor_s) {}

  /// Seconds to wait before the next poll.
  double interval() const { return current_; }
  /// Records how the last cycle went.
  void after_cycle(bool changed) { current_ = changed ? floor_ : std::min(max_, current_ * 1.5); }

 private:
  double floor_;
  double max_;
  double current_;
};

}  // namespace sweep::runner
