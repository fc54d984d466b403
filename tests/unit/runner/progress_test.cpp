#include <catch2/catch.hpp>

#include "runner/progress.h"

TEST_CASE("the progress line counts runs and formats the ETA") {
  using sweep::runner::progress_line;
  CHECK(progress_line({12, 1, 2, 85, {}}, 41) == "done 12, failed 1, running 2, remaining 85, ETA 0:41");
  CHECK(progress_line({0, 0, 0, 5, {}}, -1) == "done 0, failed 0, running 0, remaining 5, ETA --");
  CHECK(progress_line({0, 0, 0, 5, {}}, 3725) == "done 0, failed 0, running 0, remaining 5, ETA 1:02:05");
  CHECK(progress_line({3, 1, 2, 5, 40}, 61) == "done 3, failed 1, running 2, queued 40, remaining 5, ETA 1:01");
}

namespace {

/// A clock the test moves by hand.
struct HandClock final : sweep::Clock {
  std::chrono::system_clock::time_point wall_ = std::chrono::system_clock::from_time_t(1795000000);  // 2026-11-18T11:06:40Z
  std::chrono::steady_clock::time_point steady_{};
  std::chrono::system_clock::time_point wall() const override { return wall_; }
  std::chrono::steady_clock::time_point steady() const override { return steady_; }
  void advance(std::chrono::seconds s) {
    wall_ += s;
    steady_ += s;
  }
};

std::string contents(std::FILE* f) {
  std::rewind(f);
  std::string out;
  for (int c = std::fgetc(f); c != EOF; c = std::fgetc(f)) out += static_cast<char>(c);
  return out;
}

}  // namespace

TEST_CASE("the progress log: a timestamped line per change, at most one a minute, and the last state when forced") {
  using namespace sweep::runner;
  HandClock clock;
  std::FILE* out = std::tmpfile();
  REQUIRE(out);
  Progress p(out, ProgressMode::log, clock);
  p.update({0, 0, 0, 10, 5}, 0);  // the first state is logged at once
  clock.advance(std::chrono::seconds(10));
  p.update({0, 0, 2, 10, 3}, 0);  // a change within the minute waits
  p.update({0, 0, 2, 10, 3}, 0);
  clock.advance(std::chrono::seconds(50));
  p.update({1, 0, 2, 10, 2}, 1);  // a minute after the last line: logged, with an ETA from the rate
  clock.advance(std::chrono::seconds(70));
  p.update({1, 0, 2, 10, 2}, 1);  // unchanged: nothing
  p.update({15, 0, 0, 0, 0}, 15, true);  // the end, forced
  p.finish();
  const std::string text = contents(out);
  std::fclose(out);
  CHECK(text ==
        "sweep: 2026-11-18T11:06:40Z done 0, failed 0, running 0, queued 5, remaining 10, ETA --\n"
        "sweep: 2026-11-18T11:07:40Z done 1, failed 0, running 2, queued 2, remaining 10, ETA 14:00\n"
        "sweep: 2026-11-18T11:08:50Z done 15, failed 0, running 0, queued 0, remaining 0, ETA 0:00\n");
}
