#pragma once
// The header rows of a LaTeX table: long headers wrapped over two lines, and a pivot's spanning
// headers (the `cols` parameter's name over its values, \multicolumn + \cmidrule), and explicit
// columns' groups. Pure.
#include <string>
#include <string_view>
#include <vector>

#include "report/table.h"

namespace sweep::report {

/// A header longer than kWrapAt characters that has a space: two lines in a nested
/// `\begin{tabular}[b]{@{}c@{}}first\\second\end{tabular}` (no package), split before its unit
/// "(...)" when it ends with one, else at the space nearest its middle. Escaped for LaTeX either way.
inline constexpr std::size_t kWrapAt = 12;
std::string header_text(std::string_view header);

/// The header rows, each ending "\\" and followed by its \cmidrule lines. `spans[j]` is how many
/// tabular columns value column j takes (report/latex_columns.h). Without `t.col_params`: one row of
/// the row names and the columns' headers, under a row of their groups (`t.column_groups`, each over
/// the consecutive columns that share it) when any has one. A pivot: for each `cols` parameter but the last, a row of
/// "name = value" over the runs of columns that share it; then the last parameter's name over its
/// group, and a row of its values, with the row names.
std::string header_rows(const Table& t, const std::vector<int>& spans);

}  // namespace sweep::report
