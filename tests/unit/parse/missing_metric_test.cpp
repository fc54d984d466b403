#include <catch2/catch.hpp>

#include "parse/extract.h"
#include "parse/missing_metric.h"

using namespace sweep;
using namespace sweep::parse;

namespace {
Rule regex(std::string name, std::string pattern, std::string source = "stdout") {
  Rule r;
  r.name = std::move(name);
  r.pattern = std::move(pattern);
  r.source = std::move(source);
  r.where = {"exp.yaml", 12, 7};
  return r;
}
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("literal prefix of a regex: up to its first metacharacter") {
  CHECK(literal_prefix("throughput: (?<value>[0-9.]+)") == "throughput:");
  CHECK(literal_prefix("^loss=(\\d+)") == "loss=");
  CHECK(literal_prefix("samples/s (\\d+)") == "samples/s");
  CHECK(literal_prefix("steps?: (\\d+)") == "step");
  CHECK(literal_prefix("(\\d+) ms") == "");
}

TEST_CASE("closest line: the first line holding a needle, tried in order, case-insensitively") {
  const std::string text = "epoch 1\nThroughput = 12.5 samples/s\nthroughput: n/a\n";
  const auto near = closest_line(text, {"throughput:", "throughput"});
  REQUIRE(near);
  CHECK(near->line == 3);
  CHECK(near->text == "throughput: n/a");
  CHECK(near->needle == "throughput:");
  const auto by_name = closest_line(text, {"xyz:", "THROUGHPUT"});
  REQUIRE(by_name);
  CHECK(by_name->line == 2);
  CHECK_FALSE(closest_line(text, {"latency", "", "ab"}));
  CHECK(closest_line(std::string(1000, 'x') + "loss", {"loss"})->text.size() == kNearLineBytes);
}

TEST_CASE("missing metric: the rule matches on the other stream (Python's logging)") {
  const std::string err = "INFO:root:epoch 1\nINFO:root:throughput: 812.5\n";
  const std::string why = explain_missing({regex("throughput", "throughput: (?<value>[0-9.]+)")}, "throughput",
                                          {{"stdout", ""}, {"stderr", err}});
  CHECK(has(why, "regex rule \"throughput\" at exp.yaml:12:7 (reads stdout) matched no line"));
  CHECK(has(why, "it matches 1 time on stderr"));
  CHECK(has(why, "\"source: stderr\""));
}

TEST_CASE("missing metric: the line that nearly matched, and what to change") {
  const std::string out = "step 10\nthroughput = 812.5 samples/s\n";
  const std::string why = explain_missing({regex("throughput", "throughput: (?<value>[0-9.]+)")}, "throughput",
                                          {{"stdout", out}, {"stderr", ""}});
  CHECK(has(why, "closest line, stdout:2 (it holds \"throughput\"): throughput = 812.5 samples/s"));
  CHECK(has(why, "to change: correct the rule's regex"));
}

TEST_CASE("missing metric: nothing close, an empty source, no rule at all") {
  const std::string why = explain_missing({regex("loss", "loss=(\\d+)")}, "loss", {{"stdout", "hello\n"}, {"stderr", ""}});
  CHECK(has(why, "stdout has no line that holds \"loss\""));
  const std::string empty = explain_missing({regex("loss", "loss=(\\d+)")}, "loss", {{"stderr", ""}});
  CHECK(has(empty, "stdout is empty or missing"));
  const std::string none = explain_missing({regex("loss", "loss=(\\d+)")}, "accuracy", {{"stdout", ""}});
  CHECK(has(none, "no regex or json rule declares \"accuracy\""));
  CHECK(has(none, "take it out of success.metrics"));
}

TEST_CASE("source both: a rule reads stdout, then stderr") {
  Extractor ex({regex("t", "t=(?<value>\\d+)", std::string(kBothStreams))});
  const Extraction e = ex.extract({{"stdout", "t=1\n"}, {"stderr", "t=2\n"}});
  REQUIRE(e.observations.size() == 2);
  CHECK(e.observations[0].value == 1);
  CHECK(e.observations[1].value == 2);
  CHECK(ex.sources() == std::vector<std::string>{"stdout", "stderr"});
  Extractor tput({regex("tput", "tput=(?<value>\\d+)", std::string(kBothStreams))});
  CHECK(has(explain_missing(tput.rules(), "tput", {{"stdout", "x"}, {"stderr", "TPUT: 5"}}), "closest line, stderr:1"));
}
