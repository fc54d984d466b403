// LaTeX tables for papers: caption from the title alone, a label from the table's name, the
// environments of each width, the measured fit, booktabs rules, aligned cells and escaped text.
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

Table pivot() {
  Table t = table();
  t.name = "bw";
  t.col_params = {"nodes"};
  t.col_values = {{"1"}, {"2"}};
  return t;
}

}  // namespace

TEST_CASE("a LaTeX table's caption is its title alone and its label is its name, whatever the campaign") {
  const std::string tex = latex_table(pivot(), "e16_run#1");
  CHECK_THAT(tex, Catch::Contains("\\caption{busbw\\_max (GB/s)}\\label{tab:bw}"));
  CHECK_THAT(tex, Catch::StartsWith("% Table bw of campaign e16_run#1: cells are mean +/- half-width of the 95% confidence"));
  CHECK(tex.find("e16", tex.find('\n')) == std::string::npos);
  const std::string other = latex_table(pivot(), "other");
  CHECK(other.substr(other.find('\n')) == tex.substr(tex.find('\n')));  // only the % line differs
  Table full = pivot();
  full.latex.caption = spec::CaptionText::full;
  CHECK_THAT(latex_table(full, "c1"),
             Catch::Contains("\\caption{busbw\\_max (GB/s). Campaign \\texttt{c1}; mean $\\pm$ 95\\% confidence interval. A cell without $\\pm$ had no spread: one run, the same value in every run, or an exact value.}"));
  Table titled = pivot();  // a title that says its unit already is not given it twice
  titled.title = "Bus bandwidth (GB/s) per backend";
  CHECK_THAT(latex_table(titled, "c"), Catch::Contains("\\caption{Bus bandwidth (GB/s) per backend}"));
  Table own = pivot();
  own.latex.label = "tab:mine";
  CHECK_THAT(latex_table(own, "c"), Catch::Contains("\\label{tab:mine}"));
  // Undeclared tables: the per-point table is "points", a per-metric table its metric.
  Table points = table();
  points.title = "";
  CHECK(latex_label(points) == "tab:points");
  CHECK(latex_label(table()) == "tab:busbw_max");
  CHECK(latex_table_id(table()) == "busbw_max");
}

TEST_CASE("width picks table or table*, fits by measuring, and float false is a bare tabular") {
  Table t = pivot();
  const std::string column = latex_table(t, "c");
  CHECK_THAT(column, Catch::Contains("\\begin{table}[tbp]\n\\centering\n") && Catch::Contains("\\end{table}\n"));
  CHECK_THAT(column, Catch::Contains("\\ifdefined\\sweeptablebox\\else\\newsavebox{\\sweeptablebox}\\fi\n"));
  // Measured as it is, then with half the column space, and only then scaled down, inside a group.
  CHECK_THAT(column, Catch::Contains("\\begingroup\\def\\sweeptablebody{%\n\\begin{tabular}") &&
                         Catch::Contains("\\end{tabular}}%\n\\sbox{\\sweeptablebox}{\\sweeptablebody}%\n"
                                         "\\ifdim\\wd\\sweeptablebox>\\linewidth\\setlength{\\tabcolsep}{3pt}"
                                         "\\sbox{\\sweeptablebox}{\\sweeptablebody}\\fi\n"
                                         "\\ifdim\\wd\\sweeptablebox>\\linewidth\\PackageWarning{sweep}{Table bw is scaled down "
                                         "to fit the line, its type smaller than the text's; width: text or fewer columns keep its size}"
                                         "\\resizebox{\\linewidth}{!}"
                                         "{\\usebox{\\sweeptablebox}}\\else\\usebox{\\sweeptablebox}\\fi\\endgroup\n\\end{table}"));
  t.latex.width = spec::TableWidth::text;
  CHECK_THAT(latex_table(t, "c"), Catch::Contains("\\begin{table*}[tbp]") && Catch::Contains("\\end{table*}"));
  t.latex.width = spec::TableWidth::natural;
  const std::string natural = latex_table(t, "c");
  CHECK_THAT(natural, Catch::Contains("\\begin{table}[tbp]") && !Catch::Contains("sbox") && !Catch::Contains("resizebox"));
  t.latex.floating = false;
  const std::string bare = latex_table(t, "c");
  CHECK_THAT(bare, !Catch::Contains("\\begin{table") && !Catch::Contains("\\caption") && !Catch::Contains("\\label"));
  CHECK_THAT(bare, Catch::Contains("\\begin{tabular}") && Catch::EndsWith("\\end{tabular}\n"));
  t.latex.width = spec::TableWidth::column;
  CHECK_THAT(latex_table(t, "c"), Catch::Contains("\\noindent\\begingroup\\def\\sweeptablebody{%"));
}

TEST_CASE("a pivot's LaTeX has the parameter's name over its values, booktabs rules and aligned cells") {
  const std::string tex = latex_table(pivot(), "c");
  // backend is text (l); each value column is r@{}l@{\,}r@{}l: mean whole, .fraction, ± whole, .fraction.
  CHECK_THAT(tex, Catch::Contains("\\begin{tabular}{@{}lr@{}l@{\\,}r@{}lr@{}l@{\\,}r@{}l@{}}"));
  CHECK_THAT(tex, Catch::Contains("\\toprule\n & \\multicolumn{8}{c}{nodes} \\\\\n    \\cmidrule(lr){2-9}\n"
                                  "backend & \\multicolumn{4}{c}{1} & \\multicolumn{4}{c}{2} \\\\\n\\midrule\n"));
  CHECK_THAT(tex, !Catch::Contains("nodes=1"));
  // t(0.975, 4) = 2.776445: half-width 2.776445 · 1.581139 / sqrt(5) = 1.963, shown 12.0 ± 2.0 (rounding.h).
  CHECK_THAT(tex, Catch::Contains("nccl & $12$ & $.0$ & ${\\pm}\\,2$ & $.0$ & $7$ & $.5$ &  &  \\\\"));
  CHECK_THAT(tex, Catch::Contains("gl\\_oo \\& co & \\multicolumn{4}{c}{--} & $12$ & $.0$ & ${\\pm}\\,2$ & $.0$ \\\\"));
  CHECK_THAT(tex, Catch::Contains("\\bottomrule\n\\end{tabular}"));
  Table sd = pivot();
  sd.spread = Spread::sd;
  CHECK_THAT(latex_table(sd, "c"), Catch::Contains("${\\pm}\\,1$ & $.6$") && Catch::Contains("standard deviation"));
  sd.spread = Spread::none;
  CHECK_THAT(latex_table(sd, "c"), Catch::Contains("{@{}lr@{}lr@{}l@{}}") && Catch::Contains("nccl & $12$ &  & $7$ & $.5$ \\\\"));
}

TEST_CASE("a pivot over two parameters spans each level, its columns grouped") {
  Table t = pivot();
  t.col_params = {"model", "lr"};
  t.columns = {"model=a, lr=1", "model=b, lr=1", "model=a, lr=2"};
  t.col_values = {{"a", "1"}, {"b", "1"}, {"a", "2"}};
  t.spread = Spread::none;
  for (auto& row : t.cells) row.resize(3);
  t.cells[0][2] = t.cells[1][1];  // nccl: 12, 7.5, 12 as built; grouped: a/1, a/2, b/1
  const std::string tex = latex_table(t, "c");
  CHECK_THAT(tex, Catch::Contains(" & \\multicolumn{4}{c}{model = a} & \\multicolumn{2}{c}{model = b} \\\\\n"
                                  "    \\cmidrule(lr){2-5} \\cmidrule(lr){6-7}\n"
                                  " & \\multicolumn{4}{c}{lr} & \\multicolumn{2}{c}{lr} \\\\\n"
                                  "    \\cmidrule(lr){2-5} \\cmidrule(lr){6-7}\n"
                                  "backend & \\multicolumn{2}{c}{1} & \\multicolumn{2}{c}{2} & \\multicolumn{2}{c}{1} \\\\\n"));
  CHECK_THAT(tex, Catch::Contains("nccl & $12$ &  & $12$ &  & $7$ & $.5$ \\\\"));
}

TEST_CASE("siunitx tables use S columns with a table-format from the data and separate uncertainties") {
  Table t = pivot();
  t.latex.siunitx = true;
  const std::string tex = latex_table(t, "c");
  CHECK_THAT(tex, Catch::Contains("{@{}lS[table-format=2.1(2),separate-uncertainty,table-align-uncertainty=false]S[table-format=2.1(2),separate-uncertainty,table-align-uncertainty=false]@{}}"));
  CHECK_THAT(tex, Catch::Contains("nccl & 12.0 \\pm 2.0 & 7.5 \\\\") && Catch::Contains("gl\\_oo \\& co & {--} & 12.0 \\pm 2.0 \\\\"));
  CHECK_THAT(latex_table_file(t, "c"), Catch::StartsWith("% sweep report.tex format 2: table bw of campaign c; \\input{report.bw.tex}") &&
                                           Catch::Contains("% Preamble: \\usepackage{booktabs} \\usepackage{graphicx} \\usepackage{siunitx}\n"));
}

TEST_CASE("report.tex states its format, its preamble and how cells read once") {
  const std::string tex = latex_report("c1", {pivot(), table()});
  CHECK_THAT(tex, Catch::StartsWith("% sweep report.tex format 2: every table of campaign c1;") &&
                      Catch::Contains("% Preamble: \\usepackage{booktabs} \\usepackage{graphicx}\n") &&
                      !Catch::Contains("siunitx") && Catch::Contains("\\label{tab:bw}") && Catch::Contains("\\label{tab:busbw_max}"));
}

TEST_CASE("LaTeX escaping covers every special character") {
  CHECK(latex_text(R"(a\b{c}$d&e#f^g_h%i~j)") ==
        R"(a\textbackslash{}b\{c\}\$d\&e\#f\textasciicircum{}g\_h\%i\textasciitilde{}j)");
}
