// Paper tables: report.tex and report.<table>.tex \input into two-column and one-column articles, with
// and without siunitx, compile with pdflatex without an overfull box, and every \ref{tab:<name>}
// resolves, also after the campaign is rerun under another label and reported again.
#include <catch2/catch.hpp>

#include <string>

#include "e2e/harness.h"

using namespace e2e;

namespace {

// A wide declared table (10 columns, long headers, two under a group, values below 1e-4 in exponent form), the same in siunitx across the text width, and a
// pivot over lr (a spanning header) and one over two parameters.
const std::string kWideColumns = R"(
      rows: [model, batch, lr]
      baseline: {batch: 32}
      columns:
        - {param: model, label: Model architecture}
        - {param: batch, label: Global batch size}
        - {param: lr, label: Learning rate}
        - {metric: time, label: Epoch time per step (s)}
        - {metric: thr, label: Throughput (samples/s)}
        - {metric: loss, label: Validation loss, group: Quality}
        - {metric: acc, label: Top-1 accuracy (%), group: Quality}
        - {metric: time, unit: ms, label: Epoch time again (ms)}
        - {metric: thr, derived: speedup, label: Speedup over batch 32}
        - {metric: lat, label: Latency (s)}
)";

const std::string kExperiment = R"(name: paper
matrix:
  batch: [32, 64, 128]
  lr: [0.1, 0.01]
  model: [gpt2_small, resnet50]
repetitions: 3
workload:
  command: echo "time={{batch}}.{{repetition}}7 thr=1{{batch}}3.2{{repetition}} loss=0.6{{repetition}}27 acc=9{{repetition}}.5 lat=0.0000{{batch}}{{repetition}}"
metrics:
  - {name: time, unit: s, better: lower, regex: 'time=(?<value>[0-9.]+)'}
  - {name: thr, unit: samples/s, better: higher, regex: 'thr=(?<value>[0-9.]+)'}
  - {name: loss, better: lower, regex: 'loss=(?<value>[0-9.]+)'}
  - {name: acc, unit: '%', better: higher, regex: 'acc=(?<value>[0-9.]+)'}
  - {name: lat, unit: s, better: lower, regex: 'lat=(?<value>[0-9.]+)'}
report:
  tables:
    - name: main
      title: Training results of every configuration)" + kWideColumns + R"(
    - name: main-si
      title: Training results, siunitx
      siunitx: true
      width: text
      caption: full)" + kWideColumns + R"(
    - {name: lr-pivot, title: Throughput by learning rate, rows: [model, batch], cols: [lr], metrics: [thr]}
    - {name: two-level, title: Loss, rows: [batch], cols: [model, lr], metrics: [loss], siunitx: true, width: text}
)";

std::string paper(const char* options, bool siunitx) {
  const std::string refs = siunitx ? "\\ref{tab:main-si}, \\ref{tab:two-level}, " : "";
  const std::string inputs = siunitx ? "\\input{report.tex}\n" : "\\input{report.main.tex}\n\\input{report.lr-pivot.tex}\n";
  return std::string("\\documentclass") + options + "{article}\n\\usepackage{booktabs}\n\\usepackage{graphicx}\n" +
         (siunitx ? "\\usepackage{siunitx}\n" : "") + "\\begin{document}\nTables \\ref{tab:main}, " + refs +
         "\\ref{tab:lr-pivot}.\n" + inputs + "\\end{document}\n";
}

/// Compiles <dir>/<name>.tex twice (for the references); the log, or a failed check.
std::string compile(const std::string& dir, const std::string& name) {
  const auto r = shell("cd '" + dir + "' && pdflatex -halt-on-error -interaction=nonstopmode " + name +
                       ".tex >/dev/null && pdflatex -halt-on-error -interaction=nonstopmode " + name + ".tex");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  return read_file(dir + "/" + name + ".log");
}

void check_papers(const Sandbox& box, const std::string& label) {
  const std::string dir = box.path("reports/" + label);
  struct Doc {
    const char* name;
    const char* options;
    bool siunitx;
  };
  for (const Doc& d : {Doc{"two", "[twocolumn]", false}, Doc{"one", "", false}, Doc{"two-si", "[twocolumn]", true},
                       Doc{"one-si", "", true}}) {
    box.write("reports/" + label + "/" + d.name + ".tex", paper(d.options, d.siunitx));
    const std::string log = compile(dir, d.name);
    INFO(label << " " << d.name);
    CHECK_THAT(log, !Catch::Contains("Overfull \\hbox") && !Catch::Contains("undefined references") &&
                        !Catch::Contains("Reference `") && !Catch::Contains("multiply defined"));
    // A table scaled down to fit is named in the log: the wide one in a column; the pivot fits a page's text.
    if (std::string(d.name) == "two") CHECK_THAT(log, Catch::Contains("Package sweep Warning: Table main is scaled"));
    if (d.name[0] == 'o') CHECK_THAT(log, !Catch::Contains("Table lr-pivot is scaled"));
    const auto text = shell("pdftotext '" + dir + "/" + d.name + ".pdf' -");
    CHECK_THAT(text.out, Catch::Contains("Tables 1, ") && !Catch::Contains("??"));
  }
}

}  // namespace

TEST_CASE("paper tables compile in one and two columns, with and without siunitx, and keep their labels across campaigns") {
  Sandbox box;
  box.write("paper.yaml", kExperiment);
  REQUIRE(box.sweep({"run", "paper.yaml", "--label", "lr3-main"}).exit_code == 0);
  const auto report = box.sweep({"report", "lr3-main", "--no-figures"});
  INFO(report.out << report.err);
  REQUIRE(report.exit_code == 0);
  const std::string tex = read_file(box.path("reports/lr3-main/report.main.tex"));
  CHECK_THAT(tex, Catch::Contains("\\caption{Training results of every configuration}\\label{tab:main}") &&
                      !Catch::Contains("lr3-main}") && Catch::Contains("\\begin{table}[tbp]"));
  CHECK_THAT(tex, Catch::Contains("\\multicolumn{8}{c}{Quality}") && Catch::Contains("\\cmidrule(lr){12-19}"));
  CHECK_THAT(tex, Catch::Contains("\\times10^{-5}"));  // latency, 3.2e-05 s
  CHECK_THAT(read_file(box.path("reports/lr3-main/report.main-si.tex")),
             Catch::Contains(")e-5 \\\\") && Catch::Contains("\\begin{table*}") && Catch::Contains("Campaign \\texttt{lr3-main}") && Catch::Contains("S[table-format="));
  CHECK_THAT(read_file(box.path("reports/lr3-main/report.lr-pivot.tex")),
             Catch::Contains("\\multicolumn{8}{c}{lr}") && Catch::Contains("\\cmidrule(lr){3-10}") && !Catch::Contains("lr=0.1"));
  check_papers(box, "lr3-main");

  // The same experiment under another label: the same \ref's resolve in the new report's tables.
  REQUIRE(box.sweep({"run", "paper.yaml", "--label", "lr4-rerun"}).exit_code == 0);
  REQUIRE(box.sweep({"report", "lr4-rerun", "--no-figures"}).exit_code == 0);
  CHECK_THAT(read_file(box.path("reports/lr4-rerun/report.main.tex")), Catch::Contains("\\label{tab:main}"));
  check_papers(box, "lr4-rerun");
}
