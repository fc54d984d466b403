// The LaTeX tables of `sweep report` compile with pdflatex (Debian's texlive-latex-recommended, for
// booktabs), parameter values with LaTeX's special characters included.
#include <catch2/catch.hpp>

#include <filesystem>

#include "e2e/harness.h"

using namespace e2e;

TEST_CASE("report.tex compiles with pdflatex inside a paper") {
  Sandbox box;
  box.write("tex.yaml", "name: tex\nmatrix:\n  variant: [\"a_b&c\", \"50%\"]\n  n: [1, 2]\nrepetitions: 3\n"
                        "workload:\n  command: echo \"time={{n}}.{{repetition}}\"\n"
                        "metrics:\n  - {name: time, unit: s, better: lower, regex: 'time=(?<value>[0-9.]+)'}\n");
  REQUIRE(box.sweep({"run", "tex.yaml", "--label", "tex"}).exit_code == 0);
  const auto report = box.sweep({"report", "tex", "--rows", "variant", "--cols", "n"});
  INFO(report.out << report.err);
  REQUIRE(report.exit_code == 0);
  const std::string dir = box.path("reports/tex");
  const std::string tex = read_file(dir + "/report.tex");
  CHECK_THAT(tex, Catch::Contains("a\\_b\\&c") && Catch::Contains("50\\%") && Catch::Contains("\\toprule"));
  box.write("reports/tex/paper.tex", "\\documentclass[twocolumn]{article}\n\\usepackage{booktabs}\n\\usepackage{graphicx}\n\\begin{document}\n"
                                     "\\input{report.tex}\n\\end{document}\n");
  const auto r = shell("cd '" + dir + "' && pdflatex -halt-on-error -interaction=nonstopmode paper.tex");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(std::filesystem::file_size(dir + "/paper.pdf") > 1000);
  CHECK_THAT(read_file(dir + "/paper.log"), !Catch::Contains("Overfull \\hbox"));
  // The undeclared per-metric pivot is labelled by its metric, not the campaign.
  CHECK_THAT(tex, Catch::Contains("\\label{tab:time}") && Catch::Contains("\\multicolumn{8}{c}{n}"));
}
