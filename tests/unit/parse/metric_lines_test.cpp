#include <catch2/catch.hpp>

#include "parse/extract.h"
#include "parse_test_util.h"

using namespace sweep;
using namespace sweep::parse;
using namespace sweep::parse::test;

TEST_CASE("metric lines on stdout become observations") {
  const Extraction e =
      run({},
          "hello\n"
          "{\"v\": 1, \"metric\": \"busbw\", \"value\": 12.5, \"unit\": \"GB/s\", \"better\": \"higher\"}\n"
          "   {\"v\":1,\"metric\":\"busbw\",\"value\":13}\n"
          "{\"v\":1,\"metric\":\"t\",\"value\":\"2.5\",\"index\":7,\"tags\":{\"size\":8}}\n");
  REQUIRE(e.observations.size() == 3);
  const Observation& a = e.observations[0];
  CHECK(a.name == "busbw");
  CHECK(a.index == 0);
  CHECK(a.value == 12.5);
  CHECK(a.unit == "GB/s");
  CHECK(a.better == "higher");
  CHECK(e.observations[1].index == 1);
  CHECK(e.observations[1].unit.empty());
  CHECK(e.observations[1].better.empty());
  CHECK(e.observations[2].name == "t");
  CHECK(e.observations[2].index == 7);
  CHECK(e.observations[2].value == 2.5);
  CHECK(e.warnings.empty());
}

TEST_CASE("metric lines of another version are skipped with a warning") {
  const Extraction e = run({}, "{\"v\": 2, \"metric\": \"x\", \"value\": 1}\n{\"metric\": \"x\", \"value\": 1}\n");
  CHECK(e.observations.empty());
  CHECK(e.warnings ==
        std::vector<std::string>{"stdout:1: metric line version 2 is not supported (expected \"v\": 1); skipped",
                                 "stdout:2: metric line without \"v\": 1; skipped"});
}

TEST_CASE("malformed metric lines are skipped with a warning") {
  const Extraction e = run({},
                           "{\"v\":1,\"metric\":\"x\"}\n"
                           "{\"v\":1,\"metric\":\"\",\"value\":1}\n"
                           "{\"v\":1,\"metric\":\"x\",\"value\":1,\"better\":\"up\"}\n"
                           "{\"v\":1,\"metric\":\"x\",\"value\":1,\"index\":-1}\n"
                           "{\"v\":1,\"metric\":\"x\",\"value\":[1]}\n"
                           "{\"v\":1,\"metric\":\"x\",\"value\":1\n");
  CHECK(e.observations.empty());
  REQUIRE(e.warnings.size() == 6);
  CHECK(e.warnings[0] == "stdout:1: metric line without \"value\"; skipped");
  CHECK(e.warnings[1] == "stdout:2: metric line: \"metric\" must be a non-empty string of at most 256 bytes without control characters; skipped");
  CHECK(e.warnings[2] == "stdout:3: metric line: \"better\" must be \"higher\" or \"lower\"; skipped");
  CHECK(e.warnings[3] == "stdout:4: metric line: \"index\" must be a non-negative integer; skipped");
  CHECK(e.warnings[4] == "stdout:5: metric line: \"value\" must be a number or a numeric string; skipped");
  CHECK(e.warnings[5] == "stdout:6: line looks like a metric line but is not a valid JSON object; skipped");
}

TEST_CASE("non-finite metric values are skipped with a warning") {
  const Extraction e =
      run({},
          "{\"v\":1,\"metric\":\"x\",\"value\":\"nan\"}\n{\"v\":1,\"metric\":\"x\",\"value\":\"-inf\"}\n"
          "{\"v\":1,\"metric\":\"x\",\"value\":\"abc\"}\n{\"v\":1,\"metric\":\"x\",\"value\":3}\n");
  CHECK(values(e) == std::vector<double>{3});
  CHECK(e.warnings == std::vector<std::string>{"stdout:1: metric \"x\": value \"nan\" is not finite",
                                               "stdout:2: metric \"x\": value \"-inf\" is not finite",
                                               "stdout:3: metric \"x\": value \"abc\" is not a number"});
}

TEST_CASE("only lines starting with '{' are metric lines, other JSON is ignored") {
  const Extraction e = run({}, "[rank 0] {\"v\":1,\"metric\":\"x\",\"value\":1}\n{\"other\": 1}\n{\"v\":1}\n");
  CHECK(e.observations.empty());
  CHECK(e.warnings.empty());
}

TEST_CASE("metric lines are read from stderr but not from files") {
  const Extractor extractor({regex_rule("y", R"(y=(?<value>\d+))", "out.txt")});
  const Extraction e = extractor.extract(
      {{"stderr", "{\"v\":1,\"metric\":\"x\",\"value\":5}"}, {"out.txt", "{\"v\":1,\"metric\":\"z\",\"value\":6}"}});
  REQUIRE(e.observations.size() == 1);
  CHECK(e.observations[0].name == "x");
  CHECK(e.observations[0].value == 5);
}

TEST_CASE("a declared rule supplies unit and direction a metric line omits") {
  Rule rule = regex_rule("busbw", R"(never (?<value>\d+))");
  rule.unit = "GB/s";
  rule.better = "higher";
  const Extraction e = run({rule},
                           "{\"v\":1,\"metric\":\"busbw\",\"value\":1}\n"
                           "{\"v\":1,\"metric\":\"busbw\",\"value\":2,\"unit\":\"MB/s\",\"better\":\"lower\"}\n");
  REQUIRE(e.observations.size() == 2);
  CHECK(e.observations[0].unit == "GB/s");
  CHECK(e.observations[0].better == "higher");
  CHECK(e.observations[1].unit == "MB/s");
  CHECK(e.observations[1].better == "lower");
}
