// `sweep report` with a report section: declared tables, gnuplot figures (SVG and PDF), and the HTML
// report loaded in a real headless browser (Debian's chromium), which must show the tables and figures
// and show a hostile parameter value as text, with each figure at the page's width and each cell's n.
// The screenshot is kept in <build>/artifacts/.
#include <catch2/catch.hpp>

#include <filesystem>

#include "e2e/harness.h"
#include "e2e/telemetry_scenario.h"

using namespace e2e;

namespace {

const char* kExperiment = R"yaml(name: html
telemetry: false
matrix:
  nodes: [1, 2]
  gpus_per_node: [1, 2]
  model: ["gpt2", "<script>alert(1)</script>"]
repetitions: 3
workload:
  command: |
    n=$(( {{nodes}} * {{gpus_per_node}} ))
    echo "thrp=$(( 100 * n - 5 * n * n + {{repetition}} ))"
    echo "time=$(( 6000 / (100 - 5 * n) + {{repetition}} ))"
metrics:
  - {name: thrp, unit: samples/s, better: higher, regex: 'thrp=(?<value>[0-9.]+)'}
  - {name: time, unit: s, better: lower, regex: 'time=(?<value>[0-9.]+)'}
report:
  tables:
    - name: topologies
      rows: [model]
      columns:
        - {param: model, label: Model}
        - {param: nodes, label: Nodes}
        - {param: gpus_per_node, label: GPUs per Node}
        - {metric: thrp, label: Sample Thrp.}
        - {metric: thrp, derived: scaling, label: Scaling Factor}
      baseline: {nodes: 1, gpus_per_node: 1}
  figures:
    - {name: bars, kind: bars, x: nodes, y: thrp, series: [gpus_per_node], facets: model}
    - {name: lines, kind: lines, x: nodes, y: time, series: [gpus_per_node], where: {model: gpt2}, log: [y]}
    - {name: scaling, kind: scaling, x: nodes, y: thrp, series: [gpus_per_node], where: {model: gpt2},
       baseline: {nodes: 1, gpus_per_node: 1}}
)yaml";

// A page that loads report.html in an iframe and runs `check` (JavaScript over the report's document `d`,
// setting `out.textContent`) once it has loaded: what rendered lands in <pre id="result">, which
// --dump-dom prints.
std::string checker(const std::string& check) {
  return R"(<!DOCTYPE html><html><body><pre id="result">pending</pre>
<iframe id="f" src="report.html" width="1200" height="900"></iframe>
<script>
window.onload = () => {
  const out = document.getElementById('result');
  try {
    const d = document.getElementById('f').contentDocument;
)" + check + R"(
  } catch (e) {
    out.textContent = 'error: ' + e;
  }
};
</script></body></html>
)";
}

const std::string kChecker = checker(R"(
    const imgs = [...d.images];
    // The page's content box (the body less its padding): each figure should fill at least 90% of it.
    const body = getComputedStyle(d.body);
    const content = d.body.clientWidth - parseFloat(body.paddingLeft) - parseFloat(body.paddingRight);
    const narrowest = Math.min(...imgs.map(i => i.getBoundingClientRect().width));
    out.textContent = JSON.stringify({
      tables: d.querySelectorAll('table.results').length,
      rows: d.querySelectorAll('table.results tbody tr').length,
      images: imgs.length,
      drawn: imgs.filter(i => i.complete && i.naturalWidth > 100).length,
      scripts: d.querySelectorAll('script').length,
      literal: d.body.textContent.includes('<script>alert(1)<' + '/script>'),
      n: d.querySelectorAll('table.results td.num span.n').length,
      wide: narrowest >= 0.9 * content && narrowest <= content + 1}) + ' widths ' + narrowest + ' of ' + content;)");

// The telemetry timelines as rendered: each drawn (an image decoded at its width), the problem lines shown,
// the cut-short mark inside the drawing, the energy lines.
const std::string kTimelineChecker = checker(R"(
    const figs = [...d.querySelectorAll('figure.timeline')];
    const imgs = figs.flatMap(f => [...f.querySelectorAll('img')]);
    out.textContent = JSON.stringify({
      timelines: figs.length,
      drawn: imgs.filter(i => i.complete && i.naturalWidth >= 900 && i.naturalHeight > 400).length,
      errors: d.querySelectorAll('figure.timeline p.error').length,
      cut: imgs.filter(i => atob(i.src.split(',')[1]).includes('nodeB cut short')).length,
      energy: d.querySelectorAll('#energy li').length,
      scripts: d.querySelectorAll('script').length});)");

std::string chromium(const std::string& args) {
  return "chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --allow-file-access-from-files " + args +
         " 2>/dev/null";
}

}  // namespace

TEST_CASE("the HTML report renders its tables and figures in headless chromium and escapes hostile values") {
  Sandbox box;
  box.write("html.yaml", kExperiment);
  const auto run = box.sweep({"run", "html.yaml", "--label", "html"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto report = box.sweep({"report", "html"});
  INFO(report.out << report.err);
  REQUIRE(report.exit_code == 0);
  const std::string dir = box.path("reports/html");
  for (const char* name : {"bars", "lines", "scaling"}) {
    CHECK(std::filesystem::exists(dir + "/figures/" + name + ".gp"));
    CHECK(std::filesystem::exists(dir + "/figures/" + name + ".dat"));
    CHECK_THAT(read_file(dir + "/figures/" + name + ".svg"), Catch::Contains("<svg"));
    CHECK(read_file(dir + "/figures/" + name + ".pdf").rfind("%PDF", 0) == 0);
  }
  const std::string md = read_file(dir + "/report.md");
  // S_4 = T_4/(4 T_1) = 321/(4·96) for the thrp means 96 and 321 (over repetitions 0..2). Rounded by the
  // uncertainty (report/rounding.h): thrp's half-width 2.484 (leading 248) keeps two digits, 2.5, the mean
  // to tenths; S_4's half-width 0.0199.. (leading 199 or 200) two, 0.020, the mean to thousandths.
  CHECK_THAT(md, Catch::Contains("| gpt2 | 2 | 2 | 321.0 ± 2.5 (3) | 0.836 ± 0.020 (3) |"));
  // The baseline's own scaling factor is exactly 1, with no spread: said once, below the table and in the caption.
  CHECK_THAT(md, Catch::Contains("| gpt2 | 1 | 1 | 96.0 ± 2.5 (3) | 1 (3) |"));
  CHECK_THAT(md, Catch::Contains(std::string("|\n\nA cell without ± had no spread")));
  CHECK_THAT(read_file(dir + "/report.html"), Catch::Contains("95% confidence interval. A cell without ± had no spread: one run, "
                                                              "the same value in every run, or an exact value.</small></caption>"));

  box.write("reports/html/check.html", kChecker);
  const auto dom = shell(chromium("--virtual-time-budget=10000 --dump-dom 'file://" + dir + "/check.html'"));
  INFO(dom.out);
  // Every figure as wide as the page's content (at a 1200 px viewport), and each of the 8 rows' 2 metric
  // cells with its n.
  CHECK_THAT(dom.out, Catch::Contains(R"({"tables":1,"rows":8,"images":3,"drawn":3,"scripts":0,"literal":true,"n":16,"wide":true})"));

  const std::string artifacts = std::string(SWEEP_ARTIFACTS_DIR);
  std::filesystem::create_directories(artifacts);
  const std::string png = artifacts + "/html_report.png";
  std::filesystem::remove(png);
  const auto shot = shell(chromium("--window-size=1280,2400 --screenshot='" + png + "' 'file://" + dir + "/report.html'"));
  INFO(shot.out << shot.err);
  REQUIRE(std::filesystem::exists(png));
  CHECK(std::filesystem::file_size(png) > 50000);
}

TEST_CASE("a report file replaces the experiment's report section, and its mistakes name file:line:column") {
  Sandbox box;
  box.write("html.yaml", kExperiment);
  REQUIRE(box.sweep({"run", "html.yaml", "--label", "html"}).exit_code == 0);
  box.write("r.yaml", "format: 1\nreport:\n  tables:\n    - {name: t, rows: [model], cols: [nodes], metrics: [thrpt]}\n");
  const auto bad = box.sweep({"report", "html", "--spec", "r.yaml"});
  CHECK(bad.exit_code == 3);
  CHECK_THAT(bad.err, Catch::Contains("r.yaml:4:7: unknown metric \"thrpt\" (did you mean \"thrp\"?)"));
  CHECK_FALSE(std::filesystem::exists(box.path("reports/html")));
  box.write("r.yaml", "format: 1\nreport:\n  tables:\n    - {name: t, rows: [model], cols: [nodes], metrics: [thrp]}\n");
  const auto good = box.sweep({"report", "html", "--spec", "r.yaml", "--no-figures"});
  INFO(good.err);
  REQUIRE(good.exit_code == 0);
  CHECK(std::filesystem::exists(box.path("reports/html/report.t.csv")));
  CHECK_FALSE(std::filesystem::exists(box.path("reports/html/figures")));
}

TEST_CASE("the HTML report's telemetry timelines render in headless chromium") {
  Sandbox box;
  const std::string dir = telemetry_test::reported(box);
  box.write("reports/telem/check.html", kTimelineChecker);
  const auto dom = shell(chromium("--virtual-time-budget=10000 --dump-dom 'file://" + dir + "/check.html'"));
  INFO(dom.out);
  // Two points, two timelines drawn; point n=2's three refused files; its node B cut short in the drawing.
  CHECK_THAT(dom.out, Catch::Contains(R"({"timelines":2,"drawn":2,"errors":3,"cut":1,"energy":2,"scripts":0})"));
  const std::string png = std::string(SWEEP_ARTIFACTS_DIR) + "/html_report_telemetry.png";
  std::filesystem::create_directories(SWEEP_ARTIFACTS_DIR);
  std::filesystem::remove(png);
  const auto shot = shell(chromium("--window-size=1280,3000 --screenshot='" + png + "' 'file://" + dir + "/report.html'"));
  INFO(shot.out << shot.err);
  REQUIRE(std::filesystem::exists(png));
  CHECK(std::filesystem::file_size(png) > 50000);
}
