#pragma once
// LaTeX rendering of report tables for papers: booktabs rules, cells "mean ± half-width" with the
// 95% confidence interval of the mean (or the sample sd), units in the headers. The output is a
// fragment of table environments, ready to \input into a document that loads booktabs. Pure.
#include <string>
#include <vector>

#include "report/table.h"

namespace sweep::report {

/// One table environment (caption from the campaign label and the table's title, label
/// "tab:<campaign>-<name or metric>"). Text is escaped for LaTeX. A declared table's own spread wins over
/// `spread`.
std::string latex_table(const Table& table, const std::string& campaign, Spread spread = kDefaultSpread);

/// Every table, with a comment header naming the campaign and how cells read.
std::string latex_report(const std::string& campaign, const std::vector<Table>& tables, Spread spread = kDefaultSpread);

}  // namespace sweep::report
