#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "parse/extract.h"
#include "parse_test_util.h"

using namespace sweep;
using namespace sweep::parse;
using namespace sweep::parse::test;

TEST_CASE("regex rule with a value group") {
  Rule rule = regex_rule("time", R"(^time: (?<value>\S+) s$)");
  rule.unit = "s";
  rule.better = "lower";
  const Extraction e = run({rule}, "start\ntime: 1.25 s\nend\n");
  REQUIRE(e.observations.size() == 1);
  const Observation& o = e.observations[0];
  CHECK(o.name == "time");
  CHECK(o.index == 0);
  CHECK(o.value == 1.25);
  CHECK(o.unit == "s");
  CHECK(o.better == "lower");
  CHECK(e.warnings.empty());
}

TEST_CASE("regex rule with a group named like the metric") {
  const Extraction e = run({regex_rule("gflops", R"(rate=(?<gflops>[0-9.]+))")}, "x rate=88.5 y\n");
  CHECK(values(e) == std::vector<double>{88.5});
}

TEST_CASE("regex rule with one unnamed group, as JUBE and ReFrame users write it") {
  const Extraction e = run({regex_rule("time", R"(time: ([0-9.]+) s \((?:wall)\))")}, "time: 1.25 s (wall)\n");
  REQUIRE(e.observations.size() == 1);
  CHECK(e.observations[0].value == 1.25);
}

TEST_CASE("every match is an observation, indexed in order") {
  const Extraction e = run({regex_rule("lat", R"(lat (?<value>\d+))")}, "lat 3\nlat 1\nnoise\nlat 2 lat 9\n");
  CHECK(values(e) == std::vector<double>{3, 1, 2, 9});
  CHECK(indexes(e) == std::vector<std::size_t>{0, 1, 2, 3});
}

TEST_CASE("^ and $ match at line boundaries") {
  const Extraction e = run({regex_rule("x", R"(^(?<value>\d+)$)")}, "1\n 2\n3\n4 \n5");
  CHECK(values(e) == std::vector<double>{1, 3, 5});
}

TEST_CASE("patterns that match the empty string terminate") {
  const Extraction e = run({regex_rule("x", R"((?<value>\d*))")}, "12 a 3\n");
  CHECK(values(e) == std::vector<double>{12, 3});
  // the empty matches in between are warned about, not looped on
  CHECK_FALSE(e.warnings.empty());
  const Extraction none = run({regex_rule("x", R"((?<value>))")}, "");
  CHECK(none.observations.empty());
}

TEST_CASE("a value that is not a number is skipped with a warning naming source and line") {
  const Extraction e = run({regex_rule("x", R"(x=(?<value>\S+))")}, "x=1\nx=abc\n\nx=1e999\nx=inf\nx=+2\n");
  CHECK(values(e) == std::vector<double>{1, 2});
  CHECK(indexes(e) == std::vector<std::size_t>{0, 1});
  REQUIRE(e.warnings.size() == 3);
  CHECK(e.warnings[0] == "stdout:2: metric \"x\": value \"abc\" is not a number");
  CHECK(e.warnings[1] == "stdout:4: metric \"x\": value \"1e999\" is out of range");
  CHECK(e.warnings[2] == "stdout:5: metric \"x\": value \"inf\" is not finite");
}

TEST_CASE("warnings are capped at 100 plus a count") {
  std::string text;
  for (int i = 0; i < 250; ++i) text += "x=bad\n";
  const Extraction e = run({regex_rule("x", R"(x=(?<value>\S+))")}, text);
  REQUIRE(e.warnings.size() == 101);
  CHECK(e.warnings[99] == "stdout:100: metric \"x\": value \"bad\" is not a number");
  CHECK(e.warnings[100] == "... 150 more warnings");
}

TEST_CASE("a regex that does not compile is an error at the rule, with PCRE2's reason and offset") {
  try {
    Extractor bad({regex_rule("x", R"(x=(?<value>\d+)")});
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::invalid_experiment);
    CHECK(e.where().str() == "exp.yaml:7:5");
    CHECK_THAT(e.message(), Catch::Contains("metric \"x\": regex does not compile: missing closing parenthesis"));
    CHECK_THAT(e.message(), Catch::Contains("at offset 14 of the pattern"));
  }
}

TEST_CASE("a regex without the value group is an error naming the groups it may have") {
  try {
    Extractor bad({regex_rule("busbw", R"(busbw \d+)")});
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::invalid_experiment);
    CHECK(e.where().str() == "exp.yaml:7:5");
    CHECK_THAT(e.message(), Catch::Contains("needs a capturing group for the value: one unnamed group, or a group named "
                                            "\"value\" or \"busbw\""));
  }
  try {
    Extractor bad({regex_rule("busbw", R"((\d+) (\d+))")});
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.message() == "metric \"busbw\": the regex has 2 unnamed capturing groups, so which one is the value is "
                         "unclear: name it (?<value>...) or make the others non-capturing (?:...)");
  }
}

TEST_CASE("rules read their own source and absent sources are skipped") {
  const Extractor extractor({regex_rule("a", R"(a=(?<value>\d+))"), regex_rule("b", R"(b=(?<value>\d+))", "stderr"),
                             regex_rule("c", R"(c=(?<value>\d+))", "result.txt"),
                             regex_rule("d", R"(d=(?<value>\d+))", "missing.txt")});
  CHECK(extractor.sources() == std::vector<std::string>{"stdout", "stderr", "result.txt", "missing.txt"});
  const Extraction e = extractor.extract({{"stdout", "a=1 b=9 c=9"}, {"stderr", "b=2 a=9"}, {"result.txt", "c=3"}});
  REQUIRE(e.observations.size() == 3);
  CHECK(e.observations[0].name == "a");
  CHECK(e.observations[0].value == 1);
  CHECK(e.observations[1].name == "b");
  CHECK(e.observations[1].value == 2);
  CHECK(e.observations[2].name == "c");
  CHECK(e.observations[2].value == 3);
  CHECK(e.warnings.empty());
}

TEST_CASE("warnings of file sources name the file") {
  const Extractor extractor({regex_rule("c", R"(c=(?<value>\S+))", "out/result.txt")});
  const Extraction e = extractor.extract({{"out/result.txt", "\nc=?"}});
  CHECK(e.warnings == std::vector<std::string>{"out/result.txt:2: metric \"c\": value \"?\" is not a number"});
}

TEST_CASE("an nccl-tests style log parsed with regex rules") {
  std::ifstream in(SWEEP_SOURCE_DIR + "/tests/data/parse/nccl_allreduce.log");
  REQUIRE(in);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string log = buffer.str();
  Rule avg = regex_rule("avg_busbw", R"(^# Avg bus bandwidth\s*:\s*(?<value>\S+))");
  avg.unit = "GB/s";
  // out-of-place busbw: the 8th column of each data row
  const Rule row = regex_rule("busbw", R"(^\s+\d+\s+\d+\s+\w+\s+\w+\s+-?\d+\s+\S+\s+\S+\s+(?<busbw>\S+))");
  const Extraction e = run({avg, row}, log);
  CHECK(e.warnings.empty());
  REQUIRE(e.observations.size() == 9);
  CHECK(e.observations[0].name == "avg_busbw");
  CHECK(e.observations[0].value == 61.2345);
  CHECK(e.observations[0].unit == "GB/s");
  CHECK(e.observations[1].name == "busbw");
  CHECK(e.observations[1].index == 0);
  CHECK(e.observations[8].index == 7);
  CHECK(e.observations[8].value == 218.50);
}
