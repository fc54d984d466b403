// LaTeX tables: booktabs structure, mean ± CI cells, units in headers, escaped text.
#include <catch2/catch.hpp>

#include "report/latex.h"
#include "util/sinks.h"

using namespace sweep;
using namespace sweep::report;

namespace {

Table table() {
  Table t;
  t.title = "busbw_max";
  t.unit = "GB/s";
  t.row_names = {"backend"};
  t.row_values = {{"nccl"}, {"gl_oo & co"}};
  t.columns = {"nodes=1", "nodes=2"};
  Cell a;
  a.present = true;
  a.stats.summary = stats::summarize(std::vector<double>{10, 12, 11, 13, 14});  // mean 12, sd 1.581, n 5
  Cell single;
  single.present = true;
  single.stats.summary = stats::summarize(std::vector<double>{7.5});
  t.cells = {{a, single}, {Cell{}, a}};
  return t;
}

}  // namespace

TEST_CASE("a LaTeX table has booktabs rules, mean ± 95% CI cells and escaped text") {
  const std::string tex = latex_table(table(), "e16_run#1");
  CHECK_THAT(tex, Catch::Contains("\\caption{e16\\_run\\#1: busbw\\_max (GB/s), mean $\\pm$ 95\\% confidence interval}"));
  CHECK_THAT(tex, Catch::Contains("\\begin{tabular}{lrr}") && Catch::Contains("\\toprule") && Catch::Contains("\\midrule") &&
                      Catch::Contains("\\bottomrule"));
  CHECK_THAT(tex, Catch::Contains("backend & nodes=1 & nodes=2 \\\\"));
  // t(0.975, 4) = 2.776445: half-width 2.776445 · 1.581139 / sqrt(5) = 1.963, leading digits 196: two
  // digits (2.0), the mean to tenths (report/rounding.h). One run: the mean alone.
  CHECK_THAT(tex, Catch::Contains("nccl & $12.0 \\pm 2.0$ & $7.5$ \\\\"));
  CHECK_THAT(tex, Catch::Contains("gl\\_oo \\& co & -- & $12.0 \\pm 2.0$ \\\\"));
  CHECK_THAT(latex_table(table(), "c", Spread::sd), Catch::Contains("$12.0 \\pm 1.6$") && Catch::Contains("standard deviation"));
  Table declared = table();
  declared.cells[0][0].digits = 4;  // a declared `digits` overrides the rule
  CHECK_THAT(latex_table(declared, "c"), Catch::Contains("nccl & $12 \\pm 1.963$ & $7.5$"));
}

TEST_CASE("LaTeX escaping covers every special character") {
  CHECK(latex_text(R"(a\b{c}$d&e#f^g_h%i~j)") ==
        R"(a\textbackslash{}b\{c\}\$d\&e\#f\textasciicircum{}g\_h\%i\textasciitilde{}j)");
}
