#include <catch2/catch.hpp>

#include "parse/extract.h"
#include "parse_test_util.h"

using namespace sweep;
using namespace sweep::parse;
using namespace sweep::parse::test;

TEST_CASE("json rule reads a key from every JSON object line") {
  const Extraction e =
      run({json_rule("loss", "loss")}, "epoch 1\n{\"loss\": 0.5, \"step\": 1}\n  {\"loss\": 0.25}\n{\"acc\": 1}\n");
  CHECK(values(e) == std::vector<double>{0.5, 0.25});
  CHECK(indexes(e) == std::vector<std::size_t>{0, 1});
  CHECK(e.warnings.empty());
}

TEST_CASE("json rule follows dotted keys into nested objects") {
  const Extraction e = run({json_rule("p50", "latency.p50")},
                           "{\"latency\": {\"p50\": 12, \"p99\": 40}}\n{\"latency\": 3}\n{\"latency.p50\": 7}\n");
  CHECK(values(e) == std::vector<double>{12, 7});
}

TEST_CASE("json rule accepts numeric strings and warns about other values") {
  const Extraction e =
      run({json_rule("x", "x")}, "{\"x\": \"4.5\"}\n{\"x\": \"nan\"}\n{\"x\": true}\n{\"x\": null}\n{\"x\": [1]}\n");
  CHECK(values(e) == std::vector<double>{4.5});
  REQUIRE(e.warnings.size() == 4);
  CHECK(e.warnings[0] == "stdout:2: metric \"x\": value \"nan\" is not finite");
  CHECK(e.warnings[1] == "stdout:3: metric \"x\": value \"true\" is not a number");
}

TEST_CASE("lines that are not JSON objects are skipped silently") {
  const Extraction e =
      run({json_rule("x", "x")}, "{\"x\": 1\n[{\"x\": 2}]\n\"x\"\n{\"x\": 3} trailing\nx {\"x\": 4}\n");
  CHECK(e.observations.empty());
  CHECK(e.warnings.empty());
}

TEST_CASE("json rule on a file source, and an empty key is an error") {
  const Extractor extractor({json_rule("t", "t", "result.json")});
  const Extraction e = extractor.extract({{"result.json", "{\"t\": 1}\r\n{\"t\": 2}"}, {"stdout", "{\"t\": 9}"}});
  CHECK(values(e) == std::vector<double>{1, 2});
  CHECK_THROWS_AS(Extractor({json_rule("t", "")}), Error);
}
