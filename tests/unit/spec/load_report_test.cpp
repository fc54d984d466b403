// The report section and report files (spec/load_report.h): what they mean, and the errors they give.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "load_helpers.h"
#include "temp_dir.h"
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
  CHECK(t.baseline.match == ParamMatch{{"nodes", "1"}, {"gpus_per_node", "1"}});
  CHECK(t.spread == Spread::sd);
  CHECK(t.digits == 0);  // not declared: cells are rounded by their uncertainty (report/rounding.h)
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
        "x.yaml:7:32: \"report.tables[0].columns[0]\" needs exactly one of \"param\", \"metric\", \"predicted\" or \"value\"");
  CHECK(err("  tables: [{name: a, cols: [x], columns: [{param: p}]}]\n") ==
        "x.yaml:7:12: \"report.tables[0]\" has \"columns\" and \"cols\"/\"metrics\"; a table is either one row per point "
        "with explicit columns, or a pivot of rows x cols per metric");
  CHECK(err("  tables: [{name: a, labels: {p: P}, columns: [{param: p}]}]\n") ==
        "x.yaml:7:12: \"report.tables[0]\" has \"columns\" and \"labels\"; \"labels\" names the parameters of a pivot "
        "(rows x cols); give each explicit column its own \"label\"");
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

TEST_CASE("report: the model section and predicted columns") {
  const auto s = section(
      "  model: {baseline: {nodes: 1}, time: epoch_time, link: nodes_link, transfers: 2, dtype: bf16, gradient_dtype: fp32,\n"
      "          parameters: 124M_params, steps: 20, latency_us: 1.5}\n"
      "  tables: [{name: t, baseline: {nodes: 1}, columns: [{param: nodes}, {predicted: epoch_time}, {predicted: epoch_time, derived: scaling}]}]\n");
  REQUIRE(s.model.declared);
  CHECK(s.model.baseline.match == ParamMatch{{"nodes", "1"}});
  CHECK(s.model.time == "epoch_time");
  CHECK(s.model.link == "nodes_link");
  CHECK(s.model.transfers == 2);
  CHECK(s.model.gradient_dtype == "fp32");
  CHECK(s.model.parameters.name == "124M_params");
  CHECK(s.model.steps.number == 20);
  CHECK(s.model.latency_us.number == 1.5);
  CHECK_FALSE(s.model.dp.given());
  CHECK(s.tables[0].columns[1].metric == "model:epoch_time");
  CHECK(s.tables[0].columns[2].derived == DerivedMetric::scaling);

  const auto err = [](const std::string& yaml) { return load_error(kHead + "report:\n" + yaml); };
  CHECK(err("  model: {time: t, link: ib-hdr}\n") ==
        "x.yaml:7:10: \"report.model\" needs \"baseline\" (the single-GPU point, e.g. {nodes: 1, gpus_per_node: 1}) and "
        "\"time\" (its measured epoch-time metric)");
  CHECK(err("  model: {baseline: {nodes: 1}, time: t}\n") ==
        "x.yaml:7:10: \"report.model\" needs \"link\" (an interconnect such as ib-hdr, or a parameter holding one) or "
        "\"bandwidth\" (GB/s)");
  CHECK(err("  model: {baseline: {nodes: 1}, time: t, link: ib-hdr, transfers: 3}\n") ==
        "x.yaml:7:67: \"report.model.transfers\" must be 1 (full duplex) or 2 (both directions share the bandwidth), got \"3\"");
  CHECK(err("  model: {baseline: {nodes: 1}, time: t, bandwidth: -1}\n") ==
        "x.yaml:7:53: \"report.model.bandwidth\" must be a positive number, or a parameter or metric name, got \"-1\"");
  CHECK(err("  model: {baseline: {nodes: 1}, time: t, link: ib-hdr, step: 3}\n") ==
        "x.yaml:7:56: unknown key \"step\" (did you mean \"steps\"?)");
  CHECK(err("  tables: [{name: a, columns: [{predicted: epoch_time}]}]\n") ==
        "x.yaml:7:44: a predicted column needs the report's \"model\" section (docs/reports.md#predicted-values)");
  CHECK(err("  model: {baseline: {nodes: 1}, time: t, link: ib-hdr}\n  tables: [{name: a, columns: [{predicted: epoch}]}]\n") ==
        "x.yaml:8:44: \"report.tables[0].columns[0].predicted\" must be a quantity of the model (epoch_time, compute_time, "
        "comm_time, scaling_factor, bytes_per_step, bubble), got \"epoch\"");
}

TEST_CASE("report: a separate report file has format 1 and a report section") {
  const TempDir tmp;  // its own directory: ctest runs cases of one executable side by side
  const auto& dir = tmp.path;
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
}

TEST_CASE("report: a join reads another campaign's points, the metrics carried there, and its own body") {
  const ReportSpec s = section("  tables: [{name: mine, rows: [a]}]\n"
                               "  join:\n"
                               "    experiment: e15-gpt2\n"
                               "    on: [nodes, backend]\n"
                               "    metrics:\n"
                               "      - {metric: time_us, as: allreduce_time, scale: 1.0e-6, unit: s}\n"
                               "      - {metric: busbw}\n"
                               "    model: {baseline: {nodes: 1}, time: t, link: ib-hdr, allreduce: allreduce_time}\n"
                               "    tables: [{name: theirs, columns: [{param: nodes}, {predicted: epoch_time}]}]\n");
  REQUIRE(s.join);
  CHECK(s.join->experiment == "e15-gpt2");
  CHECK(s.join->on == std::vector<std::string>{"nodes", "backend"});
  REQUIRE(s.join->metrics.size() == 2);
  CHECK(s.join->metrics[0].as == "allreduce_time");
  CHECK(s.join->metrics[0].scale == 1e-6);
  CHECK(s.join->metrics[0].unit == "s");
  CHECK(s.join->metrics[1].as == "busbw");  // `as` left out keeps the name
  CHECK(s.join->metrics[1].scale == 1);
  CHECK(s.join->model.declared);
  CHECK_FALSE(s.model.declared);  // the join's model is its own
  REQUIRE(s.join->tables.size() == 1);
  CHECK(s.join->tables[0].name == "theirs");
  CHECK(s.join->at.str() == "x.yaml:9:5");
}

TEST_CASE("report: mistakes in a join") {
  const auto err = [](const std::string& yaml) { return load_error(kHead + "report:\n  join:\n" + yaml); };
  const std::string head = "    experiment: e15\n    on: [nodes]\n";  // lines 8-9
  CHECK(err("    on: [nodes]\n") ==
        "x.yaml:8:5: \"report.join\" needs \"experiment\" (whose campaign to join), \"on\" (the parameters that match "
        "points) and \"metrics\" (what to carry there)");
  CHECK(err(head + "    metrics: [{metric: t}]\n") == "x.yaml:8:5: \"report.join\" needs \"tables\" or \"figures\" over the joined points");
  CHECK(err(head + "    metrics: [{as: t}]\n    tables: [{name: a}]\n") ==
        "x.yaml:10:15: \"report.join.metrics[0]\" needs \"metric\" (a metric of this campaign)");
  CHECK(err(head + "    metrics: [{metric: t, scale: -1}]\n    tables: [{name: a}]\n") ==
        "x.yaml:10:34: \"report.join.metrics[0].scale\" must be a positive number (1e-6 turns microseconds into "
        "seconds), got \"-1\"");
  CHECK(err(head + "    metrics: []\n    tables: [{name: a}]\n") ==
        "x.yaml:10:14: \"report.join.metrics\" must be a list of {metric: ..., as: ...}, got a list");
  CHECK(err(head + "    metric: [{metric: t}]\n") == "x.yaml:10:5: unknown key \"metric\" (did you mean \"metrics\"?)");
  CHECK(err("    experiment: ../e15\n    on: [nodes]\n    metrics: [{metric: t}]\n    tables: [{name: a}]\n") ==
        "x.yaml:8:17: \"report.join.experiment\" must be a name of letters, digits, '.', '_' and '-' (it names files), "
        "got \"../e15\"");
  // Table and figure names are files of one report directory: unique across the report and its join.
  CHECK(load_error(kHead + "report:\n  tables: [{name: a}]\n  join:\n" + head + "    metrics: [{metric: t}]\n" +
                   "    figures: [{name: a, kind: bars, x: n, y: t}]\n") ==
        "x.yaml:12:15: the name \"a\" is used twice in \"report\"; tables and figures name files");
}

TEST_CASE("report: a metric column's unit and scale") {
  const ReportSpec r = section(
      "  tables:\n"                                                            // 7
      "    - name: t\n"                                                        // 8
      "      columns:\n"                                                       // 9
      "        - {param: nodes}\n"                                             // 10
      "        - {metric: time_us, unit: s, label: Time (s)}\n"                // 11
      "        - {metric: algbw, scale: 2}\n"                                  // 12
      "        - {metric: tokens_per_s, unit: ktokens/s, scale: 0.5}\n");     // 13
  const auto& c = r.tables[0].columns;
  REQUIRE(c.size() == 4);
  CHECK(c[0].unit.empty());
  CHECK(c[0].scale == 1);
  CHECK(c[1].unit == "s");
  CHECK(c[1].scale == 1);
  CHECK(c[1].unit_at.line == 11);
  CHECK(c[1].unit_at.column == 35);
  CHECK(c[2].unit.empty());
  CHECK(c[2].scale == 2);
  CHECK(c[3].unit == "ktokens/s");
  CHECK(c[3].scale == 0.5);

  const auto err = [](const std::string& yaml) { return load_error(kHead + "report:\n" + yaml); };
  CHECK(err("  tables: [{name: a, columns: [{param: p, unit: s}]}]\n") ==
        "x.yaml:7:49: \"report.tables[0].columns[0].unit\" applies to a metric column; add \"metric\" or \"predicted\"");
  CHECK(err("  tables: [{name: a, baseline: {n: 1}, columns: [{metric: t, derived: speedup, scale: 2}]}]\n") ==
        "x.yaml:7:87: \"report.tables[0].columns[0].scale\": a speedup column is a ratio and has no unit or scale");
  CHECK(err("  tables: [{name: a, columns: [{metric: t, scale: 0}]}]\n") ==
        "x.yaml:7:51: \"report.tables[0].columns[0].scale\" must be a positive number (1e-6 turns microseconds into "
        "seconds), got \"0\"");
  CHECK(err("  tables: [{name: a, columns: [{metric: t, unit: ''}]}]\n") ==
        "x.yaml:7:50: \"report.tables[0].columns[0].unit\" must be a unit, e.g. GB/s, ms or MiB, got \"\"");
}

TEST_CASE("report: a table's LaTeX options and their mistakes") {
  const ReportSpec r = section(
      "  tables:\n"
      "    - {name: a, rows: [x], label: 'tab:main-1', caption: full, width: text, float: false, siunitx: true}\n"
      "    - {name: b, rows: [x]}\n");
  REQUIRE(r.tables.size() == 2);
  const LatexTableOptions& a = r.tables[0].latex;
  CHECK(a.label == "tab:main-1");
  CHECK(a.caption == CaptionText::full);
  CHECK(a.width == TableWidth::text);
  CHECK_FALSE(a.floating);
  CHECK(a.siunitx);
  const LatexTableOptions& b = r.tables[1].latex;
  CHECK(b.label.empty());
  CHECK(b.caption == CaptionText::title);
  CHECK(b.width == TableWidth::column);
  CHECK(b.floating);
  CHECK_FALSE(b.siunitx);
  const auto err = [](const std::string& yaml) { return load_error(kHead + "report:\n" + yaml); };
  CHECK(err("  tables: [{name: a, width: page}]\n") ==
        "x.yaml:7:29: \"report.tables[0].width\" must be a table width (column, text, natural), got \"page\"");
  CHECK(err("  tables: [{name: a, float: maybe}]\n") == "x.yaml:7:29: \"report.tables[0].float\" must be true or false, got \"maybe\"");
  CHECK_THAT(err("  tables: [{name: a, label: 'tab:a b'}]\n"),
             Catch::StartsWith("x.yaml:7:29: \"report.tables[0].label\" must be a LaTeX label of letters, digits"));
  CHECK_THAT(err("  tables: [{name: a, caption: long}]\n"), Catch::Contains("must be a caption (title, full), got \"long\""));
  CHECK(err("  tables: [{name: a, columns: [{param: p, group: G}]}]\n") ==
        "x.yaml:7:50: \"report.tables[0].columns[0].group\" groups metric columns; parameter and value columns label the rows");
  const ReportSpec grouped = section("  tables: [{name: a, columns: [{param: p}, {metric: m, group: Time}]}]\n");
  CHECK(grouped.tables[0].columns[1].group == "Time");
  CHECK(grouped.tables[0].columns[0].group.empty());
}

TEST_CASE("report: a figure's paper width and style files") {
  const ReportSpec r = section("  figure_style: styles/all.gp\n"
                               "  figures:\n"
                               "    - {name: a, kind: lines, x: batch, y: t}\n"
                               "    - {name: b, kind: lines, x: batch, y: t, width: text, style: b.gp, title: Time}\n"
                               "    - {name: c, kind: lines, x: batch, y: t, width: 4.5in}\n");
  REQUIRE(r.figure_styles.size() == 1);
  CHECK(r.figure_styles[0].path == "styles/all.gp");
  CHECK(r.figure_styles[0].at.str() == "x.yaml:7:17");
  CHECK(r.figures[0].width == FigureWidth::column);
  CHECK(r.figures[0].styles.empty());
  CHECK(r.figures[1].width == FigureWidth::text);
  CHECK(r.figures[1].title == "Time");
  REQUIRE(r.figures[1].styles.size() == 1);
  CHECK(r.figures[1].styles[0].path == "b.gp");
  CHECK(r.figures[2].width == FigureWidth::inches);
  CHECK(r.figures[2].width_in == 4.5);
  const auto err = [](const std::string& yaml) { return load_error(kHead + "report:\n" + yaml); };
  CHECK(err("  figures: [{name: f, kind: bars, x: b, y: t, width: colum}]\n") ==
        "x.yaml:7:54: \"report.figures[0].width\" must be a figure width, or inches such as 4.5in (column, text), got \"colum\" (did you mean "
        "\"column\"?)");
  CHECK(err("  figures: [{name: f, kind: bars, x: b, y: t, style: ''}]\n") ==
        "x.yaml:7:54: \"report.figures[0].style\" must be a gnuplot file of set/unset lines, relative to the experiment's "
        "directory, got \"\"");
  CHECK(err("  figures: [{name: f, kind: bars, x: b, y: t, width: 40in}]\n") ==
        "x.yaml:7:54: \"report.figures[0].width\" must be a width in inches from 1 to 20, e.g. 4.5in, got \"40in\"");
  CHECK(err("  figure_styles: a.gp\n") == "x.yaml:7:3: unknown key \"figure_styles\" (did you mean \"figure_style\"?)");
}

TEST_CASE("report: labels of a pivot's and a figure's parameters") {
  const auto r = section("  tables: [{name: t, rows: [b], cols: [lr], labels: {lr: Learning rate, b: Batch}}]\n"
                         "  figures: [{name: f, kind: lines, x: b, y: t, series: [lr], labels: {lr: Learning rate}}]\n");
  CHECK(r.tables[0].labels == spec::ParamMatch{{"lr", "Learning rate"}, {"b", "Batch"}});
  CHECK(r.figures[0].labels == spec::ParamMatch{{"lr", "Learning rate"}});
}
