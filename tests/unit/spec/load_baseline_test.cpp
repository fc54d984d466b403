// `baseline:` of report tables, figures and the model (spec/load_baseline.h): both forms, and their errors.
#include <catch2/catch.hpp>

#include "load_helpers.h"
#include "spec/load_report.h"

using namespace sweep;
using namespace sweep::spec;
using spec_test::kHead;
using spec_test::load_error;

namespace {

ReportSpec section(const std::string& yaml) { return report_of_experiment(kHead + "report:\n" + yaml, "x.yaml"); }
std::string err(const std::string& yaml) { return load_error(kHead + "report:\n" + yaml); }

}  // namespace

TEST_CASE("baseline: the short form matches values and ignores nothing") {
  const ReportSpec r = section("  tables: [{name: a, baseline: {nodes: 1, gpus_per_node: 1}}]\n");
  const Baseline& b = r.tables[0].baseline;
  CHECK(b.match == ParamMatch{{"nodes", "1"}, {"gpus_per_node", "1"}});
  CHECK(b.ignore.empty());
  CHECK(b.at.str() == "x.yaml:7:32");
}

TEST_CASE("baseline: the long form names the matched values and the ignored parameters") {
  const ReportSpec r = section(
      "  model: {baseline: {match: {nodes: 1}, ignore: parallelism}, time: t, link: ib-hdr}\n"
      "  tables: [{name: a, baseline: {match: {nodes: 1, gpus_per_node: 1}, ignore: [parallelism, backend]}}]\n"
      "  figures: [{name: f, kind: scaling, x: batch, y: t, baseline: {ignore: [parallelism], match: {nodes: 1}}}]\n");
  CHECK(r.tables[0].baseline.match == ParamMatch{{"nodes", "1"}, {"gpus_per_node", "1"}});
  CHECK(r.tables[0].baseline.ignore == std::vector<std::string>{"parallelism", "backend"});
  CHECK(r.model.baseline.match == ParamMatch{{"nodes", "1"}});
  CHECK(r.model.baseline.ignore == std::vector<std::string>{"parallelism"});
  CHECK(r.figures[0].baseline.ignore == std::vector<std::string>{"parallelism"});
  CHECK(r.figures[0].baseline.at.str() == "x.yaml:9:64");
}

TEST_CASE("baseline: mistakes are reported at their file:line:column") {
  CHECK(err("  tables: [{name: a, baseline: {match: {nodes: 1}, ignore: [nodes]}}]\n") ==
        "x.yaml:7:60: \"report.tables[0].baseline.ignore\" names \"nodes\", which \"match\" gives a value; a baseline "
        "parameter is matched or ignored, not both");
  CHECK(err("  tables: [{name: a, baseline: {match: {nodes: 1}, ignores: [p]}}]\n") ==
        "x.yaml:7:52: unknown key \"ignores\" (did you mean \"ignore\"?)");
  CHECK(err("  tables: [{name: a, baseline: {ignore: [p]}}]\n") ==
        "x.yaml:7:32: \"report.tables[0].baseline\" needs \"match\", a non-empty map of parameter values, e.g. "
        "{nodes: 1, gpus_per_node: 1}");
  CHECK(err("  tables: [{name: a, baseline: {}}]\n") ==
        "x.yaml:7:32: \"report.tables[0].baseline\" must be a non-empty map of parameter values, e.g. {nodes: 1, "
        "gpus_per_node: 1}, got a map");
  CHECK(err("  tables: [{name: a, baseline: {match: {nodes: 1}, ignore: [1x]}}]\n") ==
        "x.yaml:7:61: \"report.tables[0].baseline.ignore[0]\" must be a parameter name, got \"1x\"");
}
