// spec/time_limit.h: sbatch's time notation, read by one function for the loader, every point's
// rendered resources, the local executor's limit and `escalate`.
#include <catch2/catch.hpp>

#include "spec/time_limit.h"

using namespace sweep::spec;

namespace {
double seconds_of(const char* text) {
  const TimeLimit t = parse_time_limit(text);
  INFO(text << ": " << t.problem);
  REQUIRE(t.ok());
  REQUIRE(t.seconds);
  return *t.seconds;
}
std::string problem_of(const char* text) { return parse_time_limit(text).problem; }
const std::string kFormats(kTimeFormats);
}  // namespace

TEST_CASE("time limits in each of sbatch's documented formats") {
  CHECK(seconds_of("30") == 1800.0);                                  // minutes
  CHECK(seconds_of("90") == 5400.0);                                  // minutes over an hour
  CHECK(seconds_of("10:30") == 630.0);                                // minutes:seconds
  CHECK(seconds_of("90:30") == 5430.0);                               // leading minutes may exceed 59
  CHECK(seconds_of("1:02:03") == 3723.0);                             // hours:minutes:seconds
  CHECK(seconds_of("100:00:00") == 360000.0);                         // leading hours may exceed 23
  CHECK(seconds_of("2-12") == 2 * 86400.0 + 12 * 3600);               // days-hours
  CHECK(seconds_of("1-00:30") == 86400.0 + 30 * 60);                  // days-hours:minutes
  CHECK(seconds_of("1-02:03:04") == 86400.0 + 2 * 3600 + 3 * 60 + 4);  // days-hours:minutes:seconds
  CHECK(seconds_of("0:30") == 30.0);                                  // zero minutes is fine when the total is not
}

TEST_CASE("UNLIMITED and INFINITE, in any case, are no limit") {
  for (const char* text : {"UNLIMITED", "INFINITE", "unlimited", "Infinite"}) {
    const TimeLimit t = parse_time_limit(text);
    CHECK(t.ok());
    CHECK(t.unlimited());
  }
}

TEST_CASE("a field after the leading one out of range is refused, the same everywhere") {
  CHECK(problem_of("90:75") == ": seconds must be < 60 in \"90:75\"");
  CHECK(problem_of("1:99") == ": seconds must be < 60 in \"1:99\"");
  CHECK(problem_of("1:60:00") == ": minutes must be < 60 in \"1:60:00\"");
  CHECK(problem_of("1:00:60") == ": seconds must be < 60 in \"1:00:60\"");
  CHECK(problem_of("1-24") == ": hours must be < 24 after days in \"1-24\"");
  CHECK(problem_of("1-00:60") == ": minutes must be < 60 in \"1-00:60\"");
}

TEST_CASE("fractions, zero, signs, units and other text are refused") {
  for (const char* bad : {"1.5", "abc", "", "1:2:3:4", "x-1", "-5", "1-", "10m", " 30", "1h", "1--2", "1-2-3", ":30", "30:"})
    CHECK(problem_of(bad) == " must be a time limit (" + kFormats + "), got \"" + bad + "\"");
  for (const char* zero : {"0", "00:00", "0-0", "0:0:0"})
    CHECK(problem_of(zero) == " must be a positive time limit (use UNLIMITED for none), got \"" + std::string(zero) + "\"");
}

TEST_CASE("the error message names the value") {
  CHECK(time_limit_error("resources.time", parse_time_limit("1.5")) ==
        "\"resources.time\" must be a time limit (" + kFormats + "), got \"1.5\"");
}

TEST_CASE("limits as sbatch writes them, read back") {
  CHECK(slurm_time_text(1800) == "00:30:00");
  CHECK(slurm_time_text(3723.2) == "01:02:04");  // rounded up: never less than asked
  CHECK(slurm_time_text(86400.0 + 3600) == "1-01:00:00");
  for (double s : {1800.0, 3724.0, 90061.0}) CHECK(seconds_of(slurm_time_text(s).c_str()) == s);
}
