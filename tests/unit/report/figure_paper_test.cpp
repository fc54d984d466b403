#include "report/figure_paper.h"

#include <catch2/catch.hpp>

using namespace sweep::report;
using sweep::spec::FigureWidth;

TEST_CASE("paper figures are a column or the text wide, and narrower than article's two-column A4 layout") {
  constexpr double kPoints = 72.27;  // TeX points per inch
  const PaperSize column = paper_size(FigureWidth::column, 1);
  const PaperSize text = paper_size(FigureWidth::text, 2);
  CHECK(column.width_in * kPoints < 221.0);  // \columnwidth of \documentclass[twocolumn,a4paper]{article}
  CHECK(text.width_in * kPoints < 452.0);    // its \textwidth
  CHECK(column.height_in == Approx(0.62 * column.width_in));
  CHECK(text.height_in == Approx(2 * paper_size(FigureWidth::text, 1).height_in));
  CHECK(paper_size(FigureWidth::inches, 1, 4.5).width_in == 4.5);
  CHECK(paper_size(FigureWidth::inches, 1, 4.5).height_in == Approx(0.62 * 4.5));
  CHECK(paper_terminal(column, "busbw") ==
        "set terminal cairolatex pdf input blacktext size 3in,1.86in font ',10' linewidth 1\nset output 'busbw.tex'\n");
}

TEST_CASE("text in a paper figure is LaTeX text: no TeX command survives, and gnuplot's quoting holds") {
  CHECK(paper_text("a_b 50%") == "'a\\_b 50\\%'");
  CHECK(paper_text("\\write18{id}") == "'\\textbackslash{}write18\\{id\\}'");
  CHECK(paper_text("\\input{/etc/passwd}") == "'\\textbackslash{}input\\{/etc/passwd\\}'");
  CHECK(paper_text("it's") == "'it''s'");
  CHECK(paper_text("a\nb") == "'a\\textbackslash{}x0ab'");
}
