// Declared tables, derived metrics, figures and the HTML report over an in-memory campaign.
#include <catch2/catch.hpp>
#include <fmt/core.h>

#include "campaign_fixture.h"
#include "report/declared_tables.h"
#include "report/derived.h"
#include "report/figure.h"
#include "report/html.h"
#include "report/latex.h"
#include "report/markdown.h"
#include "report/presets.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::report;
using store::RunState;

namespace {

/// nodes x gpus in {1x1, 1x2, 2x2} for two models; three repetitions each. throughput = 100·n·eff(n)
/// + rep with eff = 1, 0.9, 0.8; time = 60/(n·eff) + rep/10 (lower is better).
CampaignData scaling_campaign() {
  CampaignData d;
  d.campaign.label = "scal";
  d.campaign.spec_text = "name: <script>alert(1)</script>\n";
  const std::vector<std::tuple<const char*, const char*, double>> topologies{{"1", "1", 1.0}, {"1", "2", 0.9}, {"2", "2", 0.8}};
  std::int64_t ordinal = 0;
  for (const char* model : {"gpt2", "<script>alert(1)</script>"})
    for (const auto& [nodes, gpus, eff] : topologies) {
      const std::string id = fmt::format("p{}", ordinal);
      d.points.push_back({id, ordinal++, {{"model", model, "string", false}, {"nodes", nodes, "int", false},
                                          {"gpus", gpus, "int", false}, {"world", "x", "string", true}}});
      const double n = std::stod(nodes) * std::stod(gpus);
      for (int rep = 0; rep < 3; ++rep) {
        const auto r = fixture::add_run(d, id, rep);
        fixture::add_value(d, r, "throughput", 100 * n * eff + rep, "samples/s", "higher");
        fixture::add_value(d, r, "time", 60 / (n * eff) + rep / 10.0, "s", "lower");
      }
    }
  fixture::add_run(d, "p0", 0, RunState::failed);
  d.runs.back().failure_class = "exit_code";
  d.runs.back().failure_reason = "exited with <code> 3 & more";
  return d;
}

const spec::Baseline kBaseline{{{"nodes", "1"}, {"gpus", "1"}}, {}, {}};

/// Figure "thrp" of the scaling campaign: throughput against gpus, a series per nodes, a panel per model.
spec::ReportFigure throughput_figure(spec::FigureKind kind) {
  spec::ReportFigure g;
  g.name = "thrp";
  g.kind = kind;
  g.x = "gpus";
  g.y = "throughput";
  g.series = {"nodes"};
  g.facets = "model";
  return g;
}

}  // namespace

TEST_CASE("derived metrics: speedup, scaling factor and efficiency against the matching baseline point") {
  const auto d = scaling_campaign();
  const auto results = point_results(d);
  REQUIRE(baseline_index(results, 2, kBaseline) == std::size_t{0});  // gpt2 2x2 -> gpt2 1x1
  REQUIRE(baseline_index(results, 5, kBaseline) == std::size_t{3});  // the other model's own baseline
  CHECK(scale_against(results[2], results[0], kBaseline) == 4);
  // Throughput (higher is better): S_4 = T_4/(4 T_1) = 321/(4·101) with means over reps 0..2.
  const auto s = derive(spec::DerivedMetric::scaling, "throughput", results, 2, kBaseline);
  REQUIRE(s);
  CHECK(s->summary.mean == Approx(321.0 / (4 * 101.0)));
  CHECK(s->summary.ci_low < s->summary.mean);
  CHECK(s->summary.ci_high > s->summary.mean);
  CHECK(derive(spec::DerivedMetric::speedup, "throughput", results, 2, kBaseline)->summary.mean == Approx(321.0 / 101.0));
  // Time (lower is better): S_n = T_1/(n T_n); efficiency in percent.
  const double t1 = 60.1, t4 = 60 / 3.2 + 0.1;
  CHECK(derive(spec::DerivedMetric::scaling, "time", results, 2, kBaseline)->summary.mean == Approx(t1 / (4 * t4)));
  const auto e = derive(spec::DerivedMetric::efficiency, "time", results, 1, kBaseline);
  CHECK(e->summary.mean == Approx(100 * 60.1 / (2 * (60 / 1.8 + 0.1))));
  CHECK(e->unit == "%");
  // The baseline point against itself is exactly 1 (100%), by definition: no spread to show.
  for (auto kind : {spec::DerivedMetric::speedup, spec::DerivedMetric::scaling, spec::DerivedMetric::efficiency}) {
    const auto self = derive(kind, "throughput", results, 0, kBaseline);
    REQUIRE(self);
    CHECK(self->exact);
    CHECK(self->summary.mean == (kind == spec::DerivedMetric::efficiency ? 100 : 1));
    CHECK(self->summary.ci_low == self->summary.ci_high);
    CHECK(format_cell(Cell{true, *self, 0}, Spread::ci95) == (kind == spec::DerivedMetric::efficiency ? "100 (3)" : "1 (3)"));
  }
  CHECK_FALSE(s->exact);
  CHECK_THROWS_WITH(baseline_index(results, 0, spec::Baseline{{{"node", "1"}}, {}, {}}), Catch::Contains("unknown baseline parameter \"node\""));
  CHECK_THROWS_WITH(derive(spec::DerivedMetric::scaling, "time", results, 0, spec::Baseline{{{"model", "gpt2"}}, {}, {}}),
                    Catch::Contains("baseline parameter \"model\" must be a number"));
}

TEST_CASE("a table with explicit columns: selection, order, labels, values and derived columns") {
  const auto d = scaling_campaign();
  const auto results = point_results(d);
  spec::ReportTable t;
  t.name = "training";
  t.where = {{"model", "gpt2"}};
  t.rows = {"gpus"};
  t.baseline = kBaseline;
  t.spread = Spread::none;
  t.columns = {{"model", "", "", "", spec::DerivedMetric::none, "Model", 0, {}, "", 1, {}, ""},
               {"", "", "", "DDP", spec::DerivedMetric::none, "Parallelism", 0, {}, "", 1, {}, ""},
               {"nodes", "", "", "", spec::DerivedMetric::none, "Nodes", 0, {}, "", 1, {}, ""},
               {"gpus", "", "", "", spec::DerivedMetric::none, "GPUs per Node", 0, {}, "", 1, {}, ""},
               {"", "time", "", "", spec::DerivedMetric::none, "Epoch 2 time (s)", 3, {}, "", 1, {}, ""},
               {"", "throughput", "", "", spec::DerivedMetric::scaling, "Scaling Factor", 0, {}, "", 1, {}, ""}};
  const auto tables = build_declared(results, t);
  REQUIRE(tables.size() == 1);
  const std::string md = markdown_table(tables[0]);
  CHECK_THAT(md, Catch::Contains("| Model | Parallelism | Nodes | GPUs per Node | Epoch 2 time (s) | Scaling Factor |"));
  CHECK_THAT(md, Catch::Contains("| gpt2 | DDP | 1 | 1 | 60.1 (3) | 1 (3) |"));
  CHECK_THAT(md, Catch::Contains("| gpt2 | DDP | 1 | 2 | 33.4 (3) | 0.896 (3) |"));
  // rows: [gpus] orders 1x1 before 1x2 and 2x2 (stable for equal gpus).
  CHECK(tables[0].row_values[1] == std::vector<std::string>{"gpt2", "DDP", "1", "2"});
  CHECK(tables[0].row_values.size() == 3);

  t.columns.push_back({"nodes", "", "", "", spec::DerivedMetric::none, "", 0, {"r.yaml", 9, 11}, "", 1, {}, ""});
  CHECK_THROWS_WITH(build_declared(results, t),
                    "r.yaml:9:11: parameter and value columns come before metric columns (they label the rows)");
  t.columns.back() = {"", "thrpt", "", "", spec::DerivedMetric::none, "", 0, {"r.yaml", 9, 11}, "", 1, {}, ""};
  CHECK_THROWS_WITH(build_declared(results, t), Catch::StartsWith("r.yaml:9:11: unknown metric \"thrpt\""));
  t.columns.pop_back();
  t.where = {{"modle", "gpt2"}};
  t.at = {"r.yaml", 3, 7};
  CHECK_THROWS_WITH(build_declared(results, t), Catch::StartsWith("r.yaml:3:7: unknown parameter in \"where\" \"modle\""));
}

TEST_CASE("a figure is a gnuplot script and a data file, with every label quoted") {
  const auto d = scaling_campaign();
  const auto results = point_results(d);
  spec::ReportFigure g = throughput_figure(spec::FigureKind::bars);
  const FigureText f = build_figure(results, g, "scal");
  CHECK(f.points == 6);
  CHECK_THAT(f.script, Catch::Contains("set output 'thrp.svg'") && Catch::Contains("set output 'thrp.pdf'") &&
                           Catch::Contains("set multiplot layout 1,2") && Catch::Contains("histogram errorbars"));
  CHECK_THAT(f.script, Catch::Contains("set title 'model=<script>alert(1)</script>'"));
  // The paper version: the same panel title as LaTeX text, no figure title, sized for a column.
  const std::string paper = f.script.substr(f.script.find("cd 'paper'"));
  CHECK_THAT(paper, Catch::Contains("set title 'model=\\textless{}script\\textgreater{}alert(1)\\textless{}/script\\textgreater{}'") &&
                        Catch::Contains("set multiplot layout 1,2\n") && Catch::Contains("size 3in,1.86in") &&
                        Catch::Contains("plot '../thrp.dat'"));
  CHECK_THAT(f.script, Catch::Contains("set multiplot layout 1,2 title 'scal: throughput vs gpus'"));
  // Block of panel gpt2: a row per x (gpus 1, 2) with mean/low/high per series (nodes 1, 2).
  CHECK_THAT(f.data, Catch::Contains("\"1\"\t101\t"));
  CHECK_THAT(f.data, Catch::Contains("\"2\"\t181\t") && Catch::Contains("\t321\t"));

  g.series = {};
  g.at = {"r.yaml", 4, 5};
  CHECK_THROWS_WITH(build_figure(results, g, "scal"), Catch::StartsWith("r.yaml:4:5: figure \"thrp\": several points share gpus=2"));
  g.kind = spec::FigureKind::scaling;
  g.series = {"nodes"};
  g.baseline = kBaseline;
  const FigureText s = build_figure(results, g, "scal");
  CHECK_THAT(s.script, Catch::Contains("1 with lines dt 3 lc rgb 'black' title 'ideal'"));
  CHECK_THAT(s.data, Catch::Contains(fmt::format("2\t{:.10g}\t", 321.0 / 404)));
}

TEST_CASE("a figure's labels name its x axis, key and facet titles") {
  const auto d = scaling_campaign();
  const auto results = point_results(d);
  spec::ReportFigure g = throughput_figure(spec::FigureKind::lines);
  g.labels = {{"gpus", "GPUs per node"}, {"nodes", "Nodes"}, {"model", "Model"}};
  const FigureText f = build_figure(results, g, "scal");
  CHECK_THAT(f.script, Catch::Contains("set xlabel 'GPUs per node'") && Catch::Contains("title 'Nodes=1'") &&
                           Catch::Contains("set title 'Model=gpt2'"));
  CHECK_THAT(f.script, !Catch::Contains("'nodes=") && !Catch::Contains("'model="));
  g.x_label = "GPUs";  // xlabel wins over the label
  CHECK_THAT(build_figure(results, g, "scal").script, Catch::Contains("set xlabel 'GPUs'"));
  g.at = {"r.yaml", 9, 5};
  g.labels = {{"world", "World"}};  // a parameter the figure does not show
  CHECK_THROWS_WITH(build_figure(results, g, "scal"), Catch::StartsWith("r.yaml:9:5: figure \"thrp\": ") &&
                                                       Catch::Contains("\"world\""));
}

TEST_CASE("the HTML report escapes every user-supplied string and runs no script") {
  const auto d = scaling_campaign();
  const auto results = point_results(d);
  spec::ReportTable t;
  t.name = "all";
  t.rows = {"model"};
  t.cols = {"nodes"};
  t.metrics = {"time"};
  const std::string html = html_report(d, build_declared(results, t), {{"f", "f", "a <b> figure", "<svg xmlns='x'/>", ""}});
  CHECK_THAT(html, Catch::Contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
  CHECK_THAT(html, !Catch::Contains("<script"));
  CHECK_THAT(html, Catch::Contains("exited with &lt;code&gt; 3 &amp; more"));
  CHECK_THAT(html, Catch::Contains("<img alt=\"a &lt;b&gt; figure\" src=\"data:image/svg+xml;base64,PHN2ZyB4bWxucz0neCcvPg==\">"));
  CHECK_THAT(html, Catch::Contains("<table class=\"results\">"));
  CHECK_THAT(html, Catch::Contains("Content-Security-Policy"));
  const std::string failed = html_report(d, {}, {{"g", "g", "t", "", "gnuplot exited with 1"}});
  CHECK_THAT(failed, Catch::Contains("Figure g was not drawn: gnuplot exited with 1"));
}

TEST_CASE("a pivot's rows are ordered by its rows parameters, the first first") {
  const auto d = scaling_campaign();
  spec::ReportTable t;
  t.name = "ordered";
  t.rows = {"model", "gpus"};
  t.cols = {"nodes"};
  t.metrics = {"time"};
  const auto tables = build_declared(point_results(d), t);
  REQUIRE(tables.size() == 1);
  // The points run gpt2 first; "<script>..." sorts before "gpt2", then gpus numerically within each model.
  REQUIRE(tables[0].row_values.size() == 4);
  CHECK(tables[0].row_values[0] == std::vector<std::string>{"<script>alert(1)</script>", "1"});
  CHECK(tables[0].row_values[1] == std::vector<std::string>{"<script>alert(1)</script>", "2"});
  CHECK(tables[0].row_values[2] == std::vector<std::string>{"gpt2", "1"});
  CHECK(tables[0].row_values[3] == std::vector<std::string>{"gpt2", "2"});
}

TEST_CASE("a pivot's labels name its row, spanning and column headers") {
  const auto d = scaling_campaign();
  const auto results = point_results(d);
  spec::ReportTable t;
  t.name = "bynodes";
  t.rows = {"model"};
  t.cols = {"nodes"};
  t.metrics = {"time"};
  t.labels = {{"nodes", "Nodes used"}, {"model", "Model"}};
  const auto tables = build_declared(results, t);
  REQUIRE(tables.size() == 1);
  CHECK(tables[0].row_names == std::vector<std::string>{"Model", "gpus"});
  CHECK(tables[0].col_params == std::vector<std::string>{"Nodes used"});
  CHECK(tables[0].columns == std::vector<std::string>{"Nodes used=1", "Nodes used=2"});
  const std::string tex = latex_table(tables[0], "scal");
  CHECK_THAT(tex, Catch::Contains("{Nodes used}") && Catch::Contains("\\cmidrule") && Catch::Contains("Model & gpus"));
  CHECK_THAT(tex, !Catch::Contains("{nodes}") && !Catch::Contains("nodes="));
  // A label for a parameter the table does not have names it, at the table.
  t.at = {"r.yaml", 7, 5};
  t.labels = {{"node", "Nodes"}};
  CHECK_THROWS_WITH(build_declared(results, t), Catch::StartsWith("r.yaml:7:5:") && Catch::Contains("\"node\"") &&
                                                   Catch::Contains("nodes"));
}

TEST_CASE("default tables take the seeds' shapes for the bundled workloads' metrics") {
  CampaignData d;
  d.campaign.label = "e15";
  std::int64_t ordinal = 0;
  for (const char* model : {"gpt2", "gpt2-large"})
    for (const auto& [nodes, gpus] : std::vector<std::pair<const char*, const char*>>{{"1", "1"}, {"1", "2"}, {"2", "1"}}) {
      const std::string id = fmt::format("p{}", ordinal);
      d.points.push_back({id, ordinal++, {{"model", model, "string", false}, {"nodes", nodes, "int", false},
                                          {"gpus_per_node", gpus, "int", false}, {"seed", "1", "int", false},
                                          {"experiment_id", fmt::format("{}-{}x{}", model, nodes, gpus), "string", true}}});
      for (int rep = 0; rep < 2; ++rep) {
        const auto r = fixture::add_run(d, id, rep);
        const double n = std::stod(nodes) * std::stod(gpus);
        fixture::add_value(d, r, "epoch_time_headline", 160 / n + rep, "s", "lower");
        fixture::add_value(d, r, "peak_memory", 3690.0 + rep, "MiB", "lower");
        fixture::add_value(d, r, "samples_per_s", 10 * n * (n > 1 ? 0.9 : 1) + rep, "samples/s", "higher");
        fixture::add_value(d, r, "comm_bytes_per_step", n > 1 ? 1e6 : 0, "B", "lower");
      }
    }
  const auto results = point_results(d);
  const auto specs = default_tables(results);
  REQUIRE(specs.size() == 2);  // training and scaling; no collective metrics, so no transfer table
  const auto training = build_declared(results, specs[0]);
  REQUIRE(training.size() == 1);
  CHECK(training[0].row_names == std::vector<std::string>{"Experiment", "Model", "Nodes", "GPUs per Node"});
  CHECK(training[0].row_values[1] == std::vector<std::string>{"gpt2-1x2", "gpt2", "1", "2"});
  CHECK(training[0].columns == std::vector<std::string>{"Epoch 2 time (s)", "Peak memory (MiB)"});
  const auto scaling = build_declared(results, specs[1]);
  CHECK(scaling[0].row_names == std::vector<std::string>{"Nodes", "GPUs per Node", "model"});
  CHECK(scaling[0].columns == std::vector<std::string>{"Sample Thrp. (samples/s)", "Scaling Factor", "Net Vol. (B/step)"});
  // 1x2 of gpt2: S_2 = 18.5/(2·10.5).
  CHECK(scaling[0].cells[1][1].stats.summary.mean == Approx(18.5 / 21));
}

TEST_CASE("the default transfer table shows seed 000's e-16 quantities (2 x size / time, in seconds)") {
  // One all-reduce of 1.4 GB on 2 ranks in 0.1 s and 0.12 s: algbw = busbw = 14 and 11.67 GB/s.
  CampaignData d;
  d.campaign.label = "e16";
  for (const char* backend : {"nccl", "gloo"}) {
    const std::string id = std::string("p-") + backend;
    d.points.push_back({id, static_cast<std::int64_t>(d.points.size()),
                        {{"nodes", "2", "int", false}, {"gpus_per_node", "1", "int", false}, {"backend", backend, "string", false},
                         {"interconnect", backend[0] == 'n' ? "IB" : "TCP", "string", true},
                         {"experiment_id", "e-16-2", "string", true}}});
    for (const double time_us : {1e5, 1.2e5}) {
      const auto r = fixture::add_run(d, id, static_cast<int>(d.runs.size()));
      const double t = backend[0] == 'n' ? time_us : 10 * time_us;
      fixture::add_value(d, r, "size_bytes", 1.4e9, "B");
      fixture::add_value(d, r, "time_us", t, "us", "lower");
      fixture::add_value(d, r, "algbw", 1.4e9 / t / 1e3, "GB/s", "higher");
      fixture::add_value(d, r, "busbw", 1.4e9 / t / 1e3, "GB/s", "higher");
    }
  }
  const auto results = point_results(d);
  const auto specs = default_tables(results);
  REQUIRE(specs.size() == 1);
  CHECK(specs[0].name == "transfer");
  const auto t = build_declared(results, specs[0]);
  REQUIRE(t.size() == 1);
  CHECK(t[0].row_names == std::vector<std::string>{"Experiment", "Nodes", "GPUs per Node", "Backend", "Protocol"});
  CHECK(t[0].columns == std::vector<std::string>{"Measured Transfer speed (GB/s)", "Time (s)", "busbw (GB/s)"});
  CHECK(t[0].row_values[0] == std::vector<std::string>{"e-16-2", "2", "1", "IB", "nccl"});
  // nccl: 2 x 1.4 GB / 0.1 s and / 0.12 s -> 28 and 23.33 GB/s; 0.11 s; busbw half the transfer speed.
  CHECK(t[0].cells[0][0].stats.summary.mean == Approx((28 + 2.8 / 0.12) / 2));
  CHECK(t[0].cells[0][1].stats.summary.mean == Approx(0.11));
  CHECK(t[0].cells[0][2].stats.summary.mean == Approx(t[0].cells[0][0].stats.summary.mean / 2));
  CHECK(t[0].cells[1][1].stats.summary.mean == Approx(1.1));
}

TEST_CASE("a % in a value on the x axis is text there, never a gnuplot format") {
  CampaignData d;
  d.campaign.label = "pct";
  for (const char* load : {"10%", "%.999999999f"}) {
    const std::string id = std::string("p") + std::to_string(d.points.size());
    d.points.push_back({id, static_cast<std::int64_t>(d.points.size()), {{"load", load, "string", false}}});
    fixture::add_value(d, fixture::add_run(d, id, 0), "time", 1.5, "s", "lower");
  }
  spec::ReportFigure g;
  g.name = "time";
  g.kind = spec::FigureKind::bars;
  g.x = "load";
  g.y = "time";
  const FigureText f = build_figure(point_results(d), g, "pct");
  // A tic label is a format of the tic's value: each % is doubled, in every drawing (the paper's too).
  CHECK_THAT(f.script, Catch::Contains("set xtics ('10%%' 0, '%%.999999999f' 1)") &&
                           Catch::Contains("set xtics ('10\\%%' 0, '\\%%.999999999f' 1)"));
}

TEST_CASE("a metric as x plots one value per index: busbw vs message size per backend") {
  CampaignData d;
  d.campaign.label = "coll";
  for (const char* backend : {"gloo", "mpi"}) {
    const std::string id = std::string("p-") + backend;
    d.points.push_back({id, static_cast<std::int64_t>(d.points.size()), {{"backend", backend, "string", false}}});
    for (int rep = 0; rep < 3; ++rep) {
      const auto r = fixture::add_run(d, id, rep);
      for (std::int64_t i = 0; i < 3; ++i) {
        const double size = 1024.0 * static_cast<double>(1 << (2 * i));
        fixture::add_value(d, r, "busbw", (backend[0] == 'g' ? 1.0 : 2.0) * static_cast<double>(i + 1) + rep, "GB/s",
                           "higher", i);
        fixture::add_value(d, r, "size_bytes", size, "B", "", i);
      }
    }
  }
  const auto results = point_results(d);
  const auto& busbw = results[1].metrics.at("busbw");
  REQUIRE(busbw.by_index.size() == 3);
  CHECK(busbw.by_index[2].first == 2);
  CHECK(busbw.by_index[2].second.mean == Approx(7.0));  // mpi, index 2: 6 + rep over reps 0..2
  CHECK(results[0].metrics.at("size_bytes").by_index.size() == 3);

  spec::ReportFigure g;
  g.name = "busbw";
  g.kind = spec::FigureKind::lines;
  g.x = "size_bytes";
  g.y = "busbw";
  g.series = {"backend"};
  g.log_x = true;
  const FigureText f = build_figure(results, g, "coll");
  CHECK(f.points == 6);
  CHECK_THAT(f.data, Catch::Contains("# panel  series mpi\n1024\t3\t") && Catch::Contains("\n16384\t7\t"));
  CHECK_THAT(f.script, Catch::Contains("set logscale x"));
  // Style files' checked lines come after the generated settings and before the plot, in each of the
  // three drawings: their text, never a `load` of the path (the file could change after the check). A
  // path's newline stays inside its comment. (resolve_style ended every line; figure_style_test.)
  g.styles = {{"/home/u/all.gp", {}, "set key box\nunset grid\n"}, {"/home/u/it's\n.gp", {}, "set grid\n"}};
  const std::string styled = build_figure(results, g, "coll").script;
  CHECK(styled.find("load ") == std::string::npos);
  const std::string loads = "# style file /home/u/all.gp\nset key box\nunset grid\n# end of the style file\n"
                            "# style file /home/u/it's\\x0a.gp\nset grid\n# end of the style file\n";
  for (const char* output : {"svg", "pdf", "paper"}) {
    const std::size_t at = styled.find(fmt::format("sweep_output = '{}'\n{}", output, loads));
    REQUIRE(at != std::string::npos);
    CHECK(styled.rfind("set xrange", at) != std::string::npos);
    CHECK(styled.find("plot ", at) < styled.find("unset output", at));
  }
  g.kind = spec::FigureKind::scaling;
  g.baseline.match = {{"backend", "gloo"}};
  CHECK_THROWS_WITH(build_figure(results, g, "coll"), Catch::Contains("a scaling figure needs a parameter as x"));
}
