#pragma once
// CSV rendering of report tables (RFC 4180). Pure.
#include <string>

#include "report/table.h"

namespace sweep::report {

/// The row parameters, then for each value column three columns "<column> mean", "<column> sd" and
/// "<column> n". Numbers are written with full precision (shortest round-trip form).
std::string csv_table(const Table& table);

}  // namespace sweep::report
