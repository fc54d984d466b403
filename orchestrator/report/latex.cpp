#include "report/latex.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "util/names.h"
#include "util/sinks.h"

namespace sweep::report {
namespace {

// "$12.4 \pm 1.6$", mean and spread rounded together (cell_numbers, report/rounding.h); "--" when empty.
std::string latex_cell(const Cell& cell, Spread spread) {
  if (!cell.present || cell.stats.summary.n == 0) return "--";
  const RoundedValue shown = cell_numbers(cell, spread);
  if (shown.uncertainty.empty()) return fmt::format("${}$", shown.mean);
  return fmt::format("${} \\pm {}$", shown.mean, shown.uncertainty);
}

const char* spread_words(Spread spread) {
  switch (spread) {
    case Spread::ci95: return ", mean $\\pm$ 95\\% confidence interval";
    case Spread::sd: return ", mean $\\pm$ standard deviation";
    case Spread::none: return ", mean";
  }
  return "";
}

}  // namespace

std::string latex_table(const Table& t, const std::string& campaign, Spread default_spread) {
  const Spread spread = t.spread.value_or(default_spread);
  const std::size_t keys = t.row_names.size();
  std::string out = "\\begin{table}[ht]\n  \\centering\n";
  const std::string what = t.title.empty() ? "all metrics" : t.title + (t.unit.empty() ? "" : " (" + t.unit + ")");
  out += fmt::format("  \\caption{{{}: {}{}}}\n", latex_text(campaign), latex_text(what), spread_words(spread));
  const std::string& id = !t.name.empty() ? t.name : t.title.empty() ? std::string("points") : t.title;
  out += fmt::format("  \\label{{tab:{}-{}}}\n", to_safe_name(campaign), safe_file_name(id));
  out += fmt::format("  \\begin{{tabular}}{{{}{}}}\n    \\toprule\n", std::string(keys, 'l'), std::string(t.columns.size(), 'r'));
  std::vector<std::string> header;
  for (const auto& n : t.row_names) header.push_back(latex_text(n));
  for (const auto& c : t.columns) header.push_back(latex_text(c));
  out += "    " + fmt::format("{}", fmt::join(header, " & ")) + " \\\\\n    \\midrule\n";
  for (std::size_t r = 0; r < t.row_values.size(); ++r) {
    std::vector<std::string> cells;
    for (const auto& v : t.row_values[r]) cells.push_back(latex_text(v));
    for (const auto& cell : t.cells[r]) cells.push_back(latex_cell(cell, spread));
    out += "    " + fmt::format("{}", fmt::join(cells, " & ")) + " \\\\\n";
  }
  return out + "    \\bottomrule\n  \\end{tabular}\n\\end{table}\n";
}

std::string latex_report(const std::string& campaign, const std::vector<Table>& tables, Spread spread) {
  std::string out = fmt::format("% sweep report of campaign {}: \\input this file; it needs \\usepackage{{booktabs}}.\n"
                                "% Cells: mean $\\pm$ {} over the succeeded runs of each point.\n",
                                campaign, spread == Spread::ci95 ? "the 95% confidence interval of the mean" : "sd");
  for (const auto& t : tables) out += "\n" + latex_table(t, campaign, spread);
  return out;
}

}  // namespace sweep::report
