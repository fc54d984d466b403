// LaTeX header rows: long headers on two lines, a plain table's one row.
#include <catch2/catch.hpp>

#include "report/latex_header.h"

using namespace sweep::report;

TEST_CASE("a long header breaks before its unit, else at the space nearest its middle") {
  CHECK(header_text("Epoch time (s)") == "\\begin{tabular}[b]{@{}c@{}}Epoch time\\\\(s)\\end{tabular}");
  CHECK(header_text("Global batch size") == "\\begin{tabular}[b]{@{}c@{}}Global\\\\batch size\\end{tabular}");
  CHECK(header_text("short one") == "short one");
  CHECK(header_text("averyveryverylongword") == "averyveryverylongword");
  CHECK(header_text("speedup_of_x y_and_z") == "\\begin{tabular}[b]{@{}c@{}}speedup\\_of\\_x\\\\y\\_and\\_z\\end{tabular}");
}

TEST_CASE("a table without column parameters has one header row over the columns' spans") {
  Table t;
  t.row_names = {"nodes"};
  t.columns = {"time", "busbw"};
  CHECK(header_rows(t, {2, 4}) == "nodes & \\multicolumn{2}{c}{time} & \\multicolumn{4}{c}{busbw} \\\\\n");
}

TEST_CASE("explicit columns' groups span the consecutive columns that share one") {
  Table t;
  t.row_names = {"nodes"};
  t.columns = {"time", "busbw", "algbw", "n"};
  t.column_groups = {"", "Bandwidth (GB/s)", "Bandwidth (GB/s)", ""};
  CHECK(header_rows(t, {2, 4, 4, 2}) ==
        " & \\multicolumn{2}{c}{} & \\multicolumn{8}{c}{\\begin{tabular}[b]{@{}c@{}}Bandwidth\\\\(GB/s)\\end{tabular}} & "
        "\\multicolumn{2}{c}{} \\\\\n    \\cmidrule(lr){4-11}\n"
        "nodes & \\multicolumn{2}{c}{time} & \\multicolumn{4}{c}{busbw} & \\multicolumn{4}{c}{algbw} & \\multicolumn{2}{c}{n} \\\\\n");
  t.column_groups = {"", "", "", ""};
  CHECK(header_rows(t, {2, 4, 4, 2}).find("cmidrule") == std::string::npos);
}
