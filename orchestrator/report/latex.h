#pragma once
// LaTeX rendering of report tables for papers (docs/reports.md#latex-tables): booktabs rules, the
// caption from the table's title alone, a \label from its name that a rerun under another campaign
// keeps, cells "mean ± uncertainty" aligned on the decimal point (plain tabular columns, or siunitx S
// columns), numeric row labels right-aligned, a pivot's spanning headers, long headers on two lines,
// and a fit that never overflows the column (or the text width): the tabular is measured in a box at
// compile time and scaled down with \resizebox only when wider. Pure.
#include <string>
#include <vector>

#include "report/table.h"

namespace sweep::report {

/// The version of report.tex and the report.<table>.tex files ("% sweep report.tex format 2" in their
/// first line). 2: caption from the title, label tab:<name>, one file per table, width fit, alignment.
inline constexpr int kLatexFormatVersion = 2;

/// What names a table's file and label: its declared name, else its title (a metric), else "points"
/// (the per-point table), made a safe file name.
std::string latex_table_id(const Table& table);

/// The table's label: its `label:`, else "tab:<latex_table_id>".
std::string latex_label(const Table& table);

/// One table: a "%" line naming the campaign and how cells read, then a `table` (width column or
/// natural) or `table*` (width text) with caption and label, or a bare tabular (`float: false`). A
/// declared table's own spread wins over `spread`. Needs booktabs, graphicx (the fit) and, for a table
/// with `siunitx: true`, siunitx.
std::string latex_table(const Table& table, const std::string& campaign, Spread spread = kDefaultSpread);

/// report.<id>.tex: the format line, the preamble lines the table needs, then latex_table.
std::string latex_table_file(const Table& table, const std::string& campaign, Spread spread = kDefaultSpread);

/// report.tex: the format line, the preamble lines, the campaign and how cells read (once), then every table.
std::string latex_report(const std::string& campaign, const std::vector<Table>& tables, Spread spread = kDefaultSpread);

}  // namespace sweep::report
