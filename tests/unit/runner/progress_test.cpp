#include <catch2/catch.hpp>

#include "runner/progress.h"

TEST_CASE("the progress line counts runs and formats the ETA") {
  using sweep::runner::progress_line;
  CHECK(progress_line({12, 1, 2, 85, {}}, 41) == "done 12, failed 1, running 2, remaining 85, ETA 0:41");
  CHECK(progress_line({0, 0, 0, 5, {}}, -1) == "done 0, failed 0, running 0, remaining 5, ETA --");
  CHECK(progress_line({0, 0, 0, 5, {}}, 3725) == "done 0, failed 0, running 0, remaining 5, ETA 1:02:05");
}
