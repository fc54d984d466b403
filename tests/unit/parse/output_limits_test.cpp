// The limits on what one run's output may cost (docs/metrics-format.md#limits), and the metric names
// ingest refuses.
#include <catch2/catch.hpp>

#include <fmt/core.h>

#include "parse/extract.h"
#include "parse_test_util.h"

using namespace sweep;
using namespace sweep::parse;
using namespace sweep::parse::test;

TEST_CASE("metric names with control characters are refused with a warning") {
  const std::string out = R"({"v": 1, "metric": "m\nsystem(\"touch CANARY\")\n#", "value": 1})" "\n"
                          R"({"v": 1, "metric": "esc\u001b[31m", "value": 2})" "\n"
                          R"({"v": 1, "metric": "nul\u0000", "value": 3})" "\n"
                          R"({"v": 1, "metric": "del\u007f", "value": 4})" "\n"
                          R"({"v": 1, "metric": "a/b <script>", "value": 5})" "\n";
  const Extraction e = run({}, out);
  REQUIRE(e.observations.size() == 1);
  CHECK(e.observations[0].name == "a/b <script>");
  REQUIRE(e.warnings.size() == 4);
  CHECK(e.warnings[0] == "stdout:1: metric line: \"metric\" must be a non-empty string of at most 256 bytes without "
                         "control characters; skipped");
  CHECK_THAT(e.warnings[3], Catch::StartsWith("stdout:4: "));
}

TEST_CASE("a metric name longer than the limit is refused") {
  const Extraction e = run({}, fmt::format(R"({{"v": 1, "metric": "{}", "value": 1}})" "\n"
                                           R"({{"v": 1, "metric": "{}", "value": 2}})" "\n",
                                           std::string(kMaxMetricNameBytes + 1, 'x'), std::string(kMaxMetricNameBytes, 'y')));
  REQUIRE(e.observations.size() == 1);
  CHECK(e.observations[0].value == 2);
  CHECK(e.warnings.size() == 1);
}

TEST_CASE("a JSON line longer than the limit is skipped unparsed with a warning") {
  const std::string huge = R"({"v": 1, "metric": "big", "value": 1, "pad": ")" + std::string(kMaxJsonLineBytes, 'p') + "\"}";
  const Extraction e = run({}, huge + "\n" + R"({"v": 1, "metric": "small", "value": 2})" "\n");
  REQUIRE(e.observations.size() == 1);
  CHECK(e.observations[0].name == "small");
  REQUIRE(e.warnings.size() == 1);
  CHECK(e.warnings[0] == fmt::format("stdout:1: a JSON line of {} bytes is longer than the limit of {} bytes on a "
                                     "metric line; skipped", huge.size(), kMaxJsonLineBytes));
}

TEST_CASE("metric names past the limit per run are skipped and counted") {
  std::string out;
  for (std::size_t i = 0; i < kMaxMetricNames + 5; ++i) out += fmt::format(R"({{"v": 1, "metric": "m{}", "value": 1}})" "\n", i);
  out += R"({"v": 1, "metric": "m0", "value": 2})" "\n";  // a name already seen is still kept
  const Extraction e = run({}, out);
  CHECK(e.observations.size() == kMaxMetricNames + 1);
  CHECK(e.observations.back().name == "m0");
  CHECK(e.warnings == std::vector<std::string>{fmt::format("5 values of metrics beyond the first {} distinct metric names "
                                                           "were skipped (the limit per run, docs/metrics-format.md#limits)",
                                                           kMaxMetricNames)});
}

TEST_CASE("values past the limit per run are skipped and counted") {
  std::string out;
  out.reserve(5 * (kMaxObservations + 3));
  for (std::size_t i = 0; i < kMaxObservations + 3; ++i) out += "x=1\n";
  Rule r = regex_rule("x", R"(x=(?<value>\d+))");
  r.reduce = "each";
  const Extraction e = run({r}, out);
  CHECK(e.observations.size() == kMaxObservations);
  CHECK(e.warnings == std::vector<std::string>{fmt::format("3 values beyond the first {} were skipped (the limit per "
                                                           "run, docs/metrics-format.md#limits)", kMaxObservations)});
}
