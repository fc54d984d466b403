// util/clock.h: the database's timestamps, written by iso8601 and read back by parse_iso8601.
#include <catch2/catch.hpp>

#include <chrono>

#include "util/clock.h"

using namespace sweep;
using namespace std::chrono;

TEST_CASE("clock: parse_iso8601 reads back what iso8601 wrote, and milliseconds when given") {
  const auto t = system_clock::time_point(seconds(1795674481));  // 2026-11-26T06:28:01Z
  REQUIRE(parse_iso8601(iso8601(t)));
  CHECK(*parse_iso8601(iso8601(t)) == t);
  CHECK(*parse_iso8601("2026-11-26T06:28:01Z") == t);
  CHECK(*parse_iso8601("2026-11-26T06:28:01.123Z") == t + milliseconds(123));
}

TEST_CASE("clock: parse_iso8601 refuses any other text") {
  for (const char* bad : {"", "2026-11-26", "2026-11-26T06:28:01", "2026-11-26T06:28:01.12Z", "2026-13-01T00:00:00Z",
                          "2026-11-26T06:28:01.123Zx", "2026-11-26 03:08:01Z", "yesterday"})
    CHECK_FALSE(parse_iso8601(bad));
}
