// The built-in parsers as spec/ knows them (names, metrics; spec/metric_parsers.h) against what parse/
// implements, and the runner's conversion of `parser:` entries into extraction rules.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "parse/extract.h"
#include "runner/campaign_setup.h"
#include "spec/load.h"
#include "parse/reduce.h"
#include "spec/metric_parsers.h"
#include "spec/metric_reductions.h"

using namespace sweep;

namespace {

std::string data_file(const std::string& name) {
  std::ifstream in(SWEEP_SOURCE_DIR + "/tests/unit/parse/data/" + name, std::ios::binary);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The metric names `parser` reports on the real output `file`, each once.
std::vector<std::string> reported(const std::string& parser, const std::string& file) {
  const parse::Extractor extractor({{"", "", "", parse::Rule::Kind::parser, parser, "stdout", {}, ""}});
  const std::string text = data_file(file);
  std::vector<std::string> names;
  for (const parse::Observation& o : extractor.extract({{"stdout", text}}).observations)
    if (std::find(names.begin(), names.end(), o.name) == names.end()) names.push_back(o.name);
  return names;
}

}  // namespace

TEST_CASE("metric parsers: spec and parse know the same parsers") {
  std::vector<std::string> names;
  for (const spec::MetricParser& p : spec::kMetricParsers) names.emplace_back(p.name);
  CHECK(names == parse::builtin_parser_names());
  CHECK(std::vector<std::string>(spec::kMetricParserNames.begin(), spec::kMetricParserNames.end()) == names);
}

TEST_CASE("metric parsers: every metric a parser reports on real output is one spec lists") {
  const std::vector<std::pair<std::string, std::string>> runs{
      {"nccl-tests", "nccl-tests/all_reduce_perf_16gpu_h100.txt"},
      {"nccl-tests", "nccl-tests/all_reduce_perf_mpirun_tag_output.txt"},
      {"osu", "osu/osu_allreduce_f.txt"},
      {"osu", "osu/osu_bw.txt"}};
  for (const auto& [parser, file] : runs) {
    INFO(parser << " on " << file);
    const spec::MetricParser* known = spec::find_metric_parser(parser);
    REQUIRE(known);
    const std::vector<std::string> names = reported(parser, file);
    CHECK(std::find(names.begin(), names.end(), known->required) != names.end());
    for (const std::string& name : names) {
      INFO(name);
      CHECK(std::find(known->metrics.begin(), known->metrics.end(), name) != known->metrics.end());
    }
  }
  // the 16-GPU run reports every nccl-tests metric
  CHECK(reported("nccl-tests", "nccl-tests/all_reduce_perf_16gpu_h100.txt").size() == spec::kNcclTestsMetrics.size());
}

TEST_CASE("metric parsers: a parser entry becomes a parser rule") {
  const spec::Experiment e = spec::load_text(
      "name: t\nmatrix: {n: [1]}\nworkload: {command: x}\nmetrics:\n  - {parser: osu, source: out/osu.txt}\n"
      "  - {name: step, better: lower, json: step}\n",
      "x.yaml", {});
  const std::vector<parse::Rule> rules = runner::extraction_rules(e);
  REQUIRE(rules.size() == 2);
  CHECK(rules[0].kind == parse::Rule::Kind::parser);
  CHECK(rules[0].pattern == "osu");
  CHECK(rules[0].source == "out/osu.txt");
  CHECK(rules[0].where.str() == "x.yaml:5:5");
  CHECK(rules[1].kind == parse::Rule::Kind::json);
  const parse::Extractor extractor(rules);
  CHECK(extractor.sources() == std::vector<std::string>{"stdout", "stderr", "out/osu.txt"});
}

TEST_CASE("metric reductions: spec and parse know the same names, and the runner passes them on") {
  std::vector<std::string> names(spec::kMetricReductions.begin(), spec::kMetricReductions.end());
  CHECK(names == parse::reduction_names());
  spec::Experiment e;
  spec::MetricRule m;
  m.name = "loss";
  m.pattern = "loss (?<value>\\S+)";
  m.reduce = "min";
  e.metrics.push_back(m);
  const std::vector<parse::Rule> rules = runner::extraction_rules(e);
  REQUIRE(rules.size() == 1);
  CHECK(rules[0].reduce == "min");
}
