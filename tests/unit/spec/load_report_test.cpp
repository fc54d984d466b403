// The report section and report files (spec/load_report.h): what they mean, and the errors they give.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "load_helpers.h"
#include "spec/load_report.h"

using namespace sweep;
using namespace sweep::spec;
using spec_test::kHead;
using spec_test::load_error;

namespace {

ReportSpec section(const std::string& yaml) { return report_of_experiment(kHead + "report:\n" + yaml, "x.yaml"); }

}  // namespace

TEST_CASE("report: tables in both forms, figures and their options") {
  const ReportSpec r = section(
      "  tables:\n"                                                        // 7
      "    - name: training\n"                                             // 8
      "      where: {batch: 16}\n"                                         // 9
      "      rows: [model]\n"                                              // 10
      "      columns:\n"                                                   // 11
      "        - {param: model, label: Model}\n"                           // 12
      "        - {value: DDP, label: Parallelism}\n"                       // 13
      "        - {metric: epoch_time, label: 'Epoch 2 time (s)', digits: 3}\n"
      "        - {metric: samples_per_s, derived: scaling}\n"
      "      baseline: {nodes: 1, gpus_per_node: 1}\n"
      "      spread: sd\n"
      "    - {name: pivot, rows: [batch], cols: [nodes], metrics: [busbw], digits: 3}\n"
      "  figures:\n"
      "    - {name: f, kind: lines, x: size, y: busbw, series: [backend], facets: nodes, log: [x, y]}\n"
      "    - {name: s, kind: scaling, x: batch, y: thrp, baseline: {nodes: 1}, xlabel: Batch}\n"
      "    - {name: m, kind: model, x: nodes, y: t, predicted: t_model}\n");
  REQUIRE(r.declared);
  REQUIRE(r.tables.size() == 2);
  const ReportTable& t = r.tables[0];
  CHECK(t.name == "training");
  CHECK(t.where == ParamMatch{{"batch", "16"}});
  CHECK(t.baseline == ParamMatch{{"nodes", "1"}, {"gpus_per_node", "1"}});
  CHECK(t.spread == Spread::sd);
  REQUIRE(t.columns.size() == 4);
  CHECK(t.columns[0].param == "model");
  CHECK(t.columns[0].label == "Model");
  CHECK(t.columns[1].value == "DDP");
  CHECK(t.columns[2].digits == 3);
  CHECK(t.columns[3].derived == DerivedMetric::scaling);
  CHECK(t.columns[0].at.line == 12);
  CHECK(t.columns[0].at.column == 11);
  CHECK(r.tables[1].cols == std::vector<std::string>{"nodes"});
  CHECK(r.tables[1].digits == 3);
  REQUIRE(r.figures.size() == 3);
  CHECK(r.figures[0].kind == FigureKind::lines);
  CHECK(r.figures[0].log_x);
  CHECK(r.figures[0].log_y);
  CHECK(r.figures[0].facets == "nodes");
  CHECK(r.figures[1].x_label == "Batch");
  CHECK(r.figures[2].predicted == "t_model");
  CHECK_FALSE(report_of_experiment(kHead, "x.yaml").declared);
}

TEST_CASE("report: mistakes are reported at their file:line:column") {
  const auto err = [](const std::string& yaml) { return load_error(kHead + "report:\n" + yaml); };
  CHECK(err("  table: []\n") == "x.yaml:7:3: unknown key \"table\" (did you mean \"tables\"?)");
  CHECK(err("  tables: [{rows: [a]}]\n") == "x.yaml:7:12: \"report.tables[0]\" needs a \"name\" (it names the table's files)");
  CHECK(err("  tables: [{name: ../x}]\n") ==
        "x.yaml:7:19: \"report.tables[0].name\" must be a name of letters, digits, '.', '_' and '-' (it names files), got \"../x\"");
  CHECK(err("  tables: [{name: a, columns: [{metric: t, derived: scale}]}]\n") ==
        "x.yaml:7:53: \"report.tables[0].columns[0].derived\" must be a derived metric (speedup, scaling, efficiency), got "
        "\"scale\"");
  CHECK(err("  tables: [{name: a, columns: [{metric: t, derived: speedup}]}]\n") ==
        "x.yaml:7:32: a speedup column needs the table's \"baseline\", e.g. baseline: {nodes: 1, gpus_per_node: 1}");
  CHECK(err("  tables: [{name: a, columns: [{param: p, metric: t}]}]\n") ==
        "x.yaml:7:32: \"report.tables[0].columns[0]\" needs exactly one of \"param\", \"metric\" or \"value\"");
  CHECK(err("  tables: [{name: a, cols: [x], columns: [{param: p}]}]\n") ==
        "x.yaml:7:12: \"report.tables[0]\" has \"columns\" and \"cols\"/\"metrics\"; a table is either one row per point "
        "with explicit columns, or a pivot of rows x cols per metric");
  CHECK(err("  tables: [{name: a, digits: 0}]\n") ==
        "x.yaml:7:30: \"report.tables[0].digits\" must be a number of significant digits from 1 to 17, got \"0\"");
  CHECK(err("  tables: [{name: a}]\n  figures: [{name: a, kind: bars, x: b, y: t}]\n") ==
        "x.yaml:8:13: the name \"a\" is used twice in \"report\"; tables and figures name files");
  CHECK(err("  figures: [{name: f, kind: pie, x: b, y: t}]\n") ==
        "x.yaml:7:29: \"report.figures[0].kind\" must be a figure kind (bars, lines, scaling, model), got \"pie\"");
  CHECK(err("  figures: [{name: f, kind: bars, x: b}]\n") ==
        "x.yaml:7:13: \"report.figures[0]\" needs \"name\", \"kind\", \"x\" and \"y\"");
  CHECK(err("  figures: [{name: f, kind: model, x: b, y: t}]\n") ==
        "x.yaml:7:13: \"report.figures[0]\" is a model figure; it needs \"predicted\" (a parameter or metric)");
  CHECK(err("  figures: [{name: f, kind: scaling, x: b, y: t}]\n") ==
        "x.yaml:7:13: \"report.figures[0]\" is a scaling figure; it needs \"baseline\", e.g. {nodes: 1, gpus_per_node: 1}");
  CHECK(err("  figures: [{name: f, kind: bars, x: b, y: t, log: [z]}]\n") ==
        "x.yaml:7:53: \"report.figures[0].log[0]\" must be an axis to draw logarithmic: x or y, got \"z\"");
}

TEST_CASE("report: a separate report file has format 1 and a report section") {
  const auto dir = std::filesystem::temp_directory_path() / "sweep_report_spec_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "r.yaml").string();
  const auto write = [&](const std::string& text) { std::ofstream(path, std::ios::trunc) << text; };
  write("format: 1\nreport:\n  tables: [{name: a, rows: [x]}]\n");
  CHECK(load_report_file(path).tables.at(0).rows == std::vector<std::string>{"x"});
  write("format: 2\nreport: {}\n");
  CHECK_THROWS_WITH(load_report_file(path), path + ":1:9: \"format\" must be 1 (the only version of the report format), got \"2\"");
  write("format: 1\nreprot: {}\n");
  CHECK_THROWS_WITH(load_report_file(path), Catch::Contains(path + ":2:1: unknown key \"reprot\""));
  write("format: 1\n");
  CHECK_THROWS_WITH(load_report_file(path), path + ":1:1: the file needs a \"report\" section with \"tables\" and/or \"figures\"");
  CHECK_THROWS_AS(load_report_file((dir / "missing.yaml").string()), Error);
  std::filesystem::remove_all(dir);
}
