#pragma once
// CSV rendering of report tables (RFC 4180). Pure.
#include <string>

#include "report/table.h"

namespace sweep::report {

/// Report CSV format 2. The row parameters, then for each value column three columns "<column> mean",
/// "<column> sd" and "<column> n", numbers with full precision (shortest round-trip form), for machines;
/// then, for each value column, "<column> mean shown" and "<column> uncertainty shown": the texts the
/// other formats show (cell_numbers: rounded by the uncertainty, which is the table's spread, the 95% CI
/// half-width unless it declares `spread`), the uncertainty empty where the cell has none. An empty cell:
/// "", "", "0", and two empty texts. (Format 1 had no shown columns: the columns before them are unchanged.)
std::string csv_table(const Table& table);

}  // namespace sweep::report
