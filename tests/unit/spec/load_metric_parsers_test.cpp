// spec::load_text: `metrics` entries that name a built-in parser (`- parser: nccl-tests`).
#include "load_helpers.h"
#include "spec/metric_parsers.h"

using namespace sweep;
using namespace sweep::spec;
using spec_test::kMetricsHead;
using spec_test::load;
using spec_test::load_error;
using spec_test::load_metrics;  // entries from line 5
using spec_test::metrics_error;

TEST_CASE("metric parsers: an entry with only a parser, stdout by default") {
  const Experiment e = load_metrics("  - parser: nccl-tests\n");
  REQUIRE(e.metrics.size() == 1);
  const MetricRule& m = e.metrics[0];
  CHECK(m.kind == MetricRule::Kind::parser);
  CHECK(m.pattern == "nccl-tests");
  CHECK(m.name.empty());
  CHECK(m.unit.empty());
  CHECK(m.better.empty());
  CHECK(m.source == "stdout");
  CHECK(m.where.str() == "x.yaml:5:5");
  CHECK(e.success.metrics == std::vector<std::string>{"size_bytes"});  // at least one table row
}

TEST_CASE("metric parsers: sources follow the rules of regex and json entries") {
  CHECK(load_metrics("  - {parser: osu, source: stderr}\n").metrics[0].source == "stderr");
  CHECK(load_metrics("  - {parser: osu, source: out/osu.txt}\n").metrics[0].source == "out/osu.txt");
  CHECK(metrics_error("  - {parser: osu, source: ../osu.txt}\n") ==
        "x.yaml:5:27: \"metrics[0].source\" must be stdout, stderr, both (stdout, then stderr) or a path inside the run directory (relative, "
        "without \"..\"), got \"../osu.txt\"");
}

TEST_CASE("metric parsers: an unknown parser lists the available ones") {
  CHECK(metrics_error("  - parser: ncl-tests\n") ==
        "x.yaml:5:13: unknown parser \"ncl-tests\" (available: nccl-tests, osu) (did you mean \"nccl-tests\"?)");
  CHECK(metrics_error("  - {parser: imb}\n") == "x.yaml:5:14: unknown parser \"imb\" (available: nccl-tests, osu)");
  CHECK(metrics_error("  - {parser: [osu]}\n") ==
        "x.yaml:5:14: \"metrics[0].parser\" must be the name of a parser, got a list");
}

TEST_CASE("metric parsers: a parser takes no name, unit, better, regex or json") {
  const std::string tail = " (a parser names its metrics itself; the entry takes only \"source\")";
  CHECK(metrics_error("  - {parser: osu, name: lat}\n") ==
        "x.yaml:5:19: \"parser\" cannot be combined with \"name\"" + tail);
  CHECK(metrics_error("  - parser: osu\n    better: lower\n") ==
        "x.yaml:6:5: \"parser\" cannot be combined with \"better\"" + tail);
  CHECK(metrics_error("  - {parser: nccl-tests, unit: GB/s}\n") ==
        "x.yaml:5:26: \"parser\" cannot be combined with \"unit\"" + tail);
  CHECK(metrics_error("  - {parser: nccl-tests, regex: '(?<value>1)'}\n") ==
        "x.yaml:5:26: \"parser\" cannot be combined with \"regex\"" + tail);
  CHECK(metrics_error("  - {json: busbw, parser: nccl-tests}\n") ==
        "x.yaml:5:6: \"parser\" cannot be combined with \"json\"" + tail);
  CHECK(metrics_error("  - {parser: osu, parsr: x}\n") ==
        "x.yaml:5:19: unknown key \"parsr\" (did you mean \"parser\"?)");
}

TEST_CASE("metric parsers: each metric has one producer") {
  CHECK(metrics_error("  - {name: busbw, better: higher, regex: 'bw (?<value>\\S+)'}\n  - parser: nccl-tests\n") ==
        "x.yaml:6:5: parser \"nccl-tests\" also reports metric \"busbw\" (declared at line 5); give each metric one "
        "producer");
  CHECK(metrics_error("  - parser: osu\n  - {name: latency_us, better: lower, json: lat}\n") ==
        "x.yaml:6:5: metric \"latency_us\" is also reported by parser \"osu\" (declared at line 5); give each metric "
        "one producer");
  CHECK(metrics_error("  - parser: osu\n  - {parser: osu, source: stdout}\n") ==
        "x.yaml:6:5: duplicate parser \"osu\" on stdout (first declared at line 5)");
  // one parser on two sources, and two parsers that share size_bytes (each run prints one of them)
  CHECK(load_metrics("  - parser: osu\n  - {parser: osu, source: stderr}\n").metrics.size() == 2);
  CHECK(load_metrics("  - parser: osu\n  - parser: nccl-tests\n").success.metrics ==
        std::vector<std::string>{"size_bytes"});
}

TEST_CASE("metric parsers: success.metrics may name any metric a parser reports") {
  const std::string metrics = "  - parser: nccl-tests\n  - {name: step, better: lower, json: step}\n";
  CHECK(load_metrics(metrics).success.metrics == std::vector<std::string>{"size_bytes", "step"});
  CHECK(load(kMetricsHead + metrics + "success: {metrics: [busbw_avg, step]}\n").success.metrics ==
        std::vector<std::string>{"busbw_avg", "step"});
  CHECK(load_error(kMetricsHead + metrics + "success: {metrics: [busbw_avrg]}\n") ==
        "x.yaml:7:21: unknown metric \"busbw_avrg\" in success.metrics (did you mean \"busbw_avg\"?)");
  CHECK(load_error(kMetricsHead + metrics + "success: {metrics: [latency_us]}\n") ==
        "x.yaml:7:21: unknown metric \"latency_us\" in success.metrics");
}

TEST_CASE("metric parsers: the table lists each parser's metrics once and requires one of them") {
  for (const MetricParser& parser : kMetricParsers) {
    INFO(parser.name);
    CHECK(find_metric_parser(parser.name) == &parser);
    CHECK(std::find(parser.metrics.begin(), parser.metrics.end(), parser.required) != parser.metrics.end());
    for (std::size_t i = 0; i < parser.metrics.size(); ++i)
      CHECK(std::count(parser.metrics.begin(), parser.metrics.end(), parser.metrics[i]) == 1);
  }
  CHECK(find_metric_parser("imb") == nullptr);
}

TEST_CASE("success.where: an expression over metrics, parsed at load and bound to its own names") {
  const auto with_where = [](const std::string& where) {
    return kMetricsHead + "  - parser: nccl-tests\nsuccess: {where: \"" + where + "\"}\n";
  };
  const Experiment e = load(with_where("busbw_avg > 0 && wrong == 0"));
  REQUIRE(e.success.criterion);
  CHECK(e.success.criterion->names() == std::vector<std::string>{"busbw_avg", "wrong"});
  const std::vector<std::pair<std::string, std::string>> errors{
      {"busbw_avg >", "x.yaml:6:30: expected an operand after \">\""},
      {"n > 1", "x.yaml:6:18: success.where reads \"n\", a parameter; it reads the run's metrics only (compare a "
                "metric with a parameter in a derived value or a report)"},
      {"1 < 2", "x.yaml:6:18: success.where reads no metric (expected an expression such as \"wrong == 0\")"},
  };
  for (const auto& [where, message] : errors) CHECK(load_error(with_where(where)) == message);
}
