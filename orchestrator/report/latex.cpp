#include "report/latex.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "report/latex_columns.h"
#include "report/latex_header.h"
#include "report/rounding.h"
#include "util/sinks.h"

namespace sweep::report {
namespace {

using spec::CaptionText;
using spec::TableWidth;

/// The mean and the uncertainty texts of a cell as every format shows them (cell_numbers,
/// report/rounding.h); {} for an empty cell; no uncertainty for a cell without spread.
NumberText cell_parts(const Cell& cell, Spread spread) {
  if (!cell.present || cell.stats.summary.n == 0) return {};
  const RoundedValue shown = cell_numbers(cell, spread);
  return {shown.mean, shown.uncertainty};
}

/// How cells read, in a caption (LaTeX) and in a "%" comment (ASCII).
struct SpreadWords {
  const char* caption;
  const char* comment;
};
SpreadWords spread_words(Spread spread) {
  switch (spread) {
    case Spread::ci95: return {"mean $\\pm$ 95\\% confidence interval", "mean +/- half-width of the 95% confidence interval"};
    case Spread::sd: return {"mean $\\pm$ standard deviation", "mean +/- standard deviation"};
    case Spread::none: return {"mean", "mean"};
  }
  return {"", ""};
}

/// kZeroSpreadNote with its "±" written for `plus_minus` ("$\\pm$" in a caption, "+/-" in a comment).
std::string zero_spread_note(const std::string& plus_minus) {
  std::string note = kZeroSpreadNote;
  const std::string pm = "±";
  return note.replace(note.find(pm), pm.size(), plus_minus);
}

std::string caption(const Table& t, const std::string& campaign, Spread spread) {
  // A pivot's cells are in its metric's unit, which its caption says unless its title already does.
  const std::string unit = t.unit.empty() || t.title.find("(" + t.unit + ")") != std::string::npos ? "" : " (" + t.unit + ")";
  const std::string what = t.title.empty() ? "Every metric per point" : t.title + unit;
  if (t.latex.caption == CaptionText::title) return latex_text(what);
  return fmt::format("{}. Campaign \\texttt{{{}}}; {}.{}", latex_text(what), latex_text(campaign), spread_words(spread).caption,
                     has_zero_spread(t, spread) ? " " + zero_spread_note("$\\pm$") : "");
}

/// A pivot's columns grouped level by level (the first `cols` parameter's values in their order of
/// first appearance, then the second's within each, ...), so equal values sit side by side under one
/// spanning header. Other tables as they are.
Table grouped(const Table& t) {
  if (t.col_params.empty() || t.col_values.size() != t.columns.size()) return t;
  std::vector<std::vector<std::size_t>> rank(t.columns.size());
  for (std::size_t d = 0; d < t.col_params.size(); ++d) {
    std::vector<std::string> seen;
    for (std::size_t j = 0; j < t.columns.size(); ++j) {
      const auto it = std::find(seen.begin(), seen.end(), t.col_values[j][d]);
      rank[j].push_back(static_cast<std::size_t>(it - seen.begin()));
      if (it == seen.end()) seen.push_back(t.col_values[j][d]);
    }
  }
  std::vector<std::size_t> order(t.columns.size());
  for (std::size_t j = 0; j < order.size(); ++j) order[j] = j;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rank[a] < rank[b]; });
  Table out = t;
  for (std::size_t j = 0; j < order.size(); ++j) {
    out.columns[j] = t.columns[order[j]];
    out.col_values[j] = t.col_values[order[j]];
    if (j < t.column_units.size() && order[j] < t.column_units.size()) out.column_units[j] = t.column_units[order[j]];
    for (std::size_t r = 0; r < t.cells.size(); ++r)
      if (order[j] < t.cells[r].size() && j < out.cells[r].size()) out.cells[r][j] = t.cells[r][order[j]];
  }
  return out;
}

/// The value columns, aligned (report/latex_columns.h), one per table column.
std::vector<AlignedColumn> value_columns(const Table& t, Spread spread) {
  std::vector<AlignedColumn> out;
  for (std::size_t j = 0; j < t.columns.size(); ++j) {
    std::vector<NumberText> texts;
    for (const auto& row : t.cells) texts.push_back(j < row.size() ? cell_parts(row[j], spread) : NumberText{});
    out.push_back(t.latex.siunitx ? align_siunitx(texts) : align_plain(texts));
  }
  return out;
}

std::string tabular(const Table& t, Spread spread) {
  std::string spec;
  for (std::size_t k = 0; k < t.row_names.size(); ++k) {
    std::vector<std::string> keys;
    for (const auto& row : t.row_values) keys.push_back(k < row.size() ? row[k] : "");
    spec += key_column_spec(keys);
  }
  const std::vector<AlignedColumn> values = value_columns(t, spread);
  std::vector<int> spans;
  for (const auto& v : values) spec += v.spec, spans.push_back(v.span);
  std::string out = fmt::format("\\begin{{tabular}}{{@{{}}{}@{{}}}}\n\\toprule\n{}\\midrule\n", spec, header_rows(t, spans));
  for (std::size_t r = 0; r < t.row_values.size(); ++r) {
    std::vector<std::string> cells;
    for (const auto& v : t.row_values[r]) cells.push_back(latex_text(v));
    for (const auto& v : values) cells.push_back(v.cells[r]);
    out += fmt::format("{} \\\\\n", fmt::join(cells, " & "));
  }
  return out + "\\bottomrule\n\\end{tabular}";
}

/// The tabular fitted to \linewidth (the column in a `table`, the text width in a `table*`, the line where
/// a bare tabular stands), measured in a box at compile time: as it is when it fits; else set again with
/// half the space between columns (\tabcolsep 3pt); and only when that is still wider, scaled down to
/// \linewidth. All inside a group, so the narrower \tabcolsep never reaches the rest of the document.
std::string fitted(const std::string& body, const char* indent, const std::string& id) {
  return fmt::format("{}\\begingroup\\def\\sweeptablebody{{%\n{}}}%\n"
                     "\\sbox{{\\sweeptablebox}}{{\\sweeptablebody}}%\n"
                     "\\ifdim\\wd\\sweeptablebox>\\linewidth\\setlength{{\\tabcolsep}}{{3pt}}"
                     "\\sbox{{\\sweeptablebox}}{{\\sweeptablebody}}\\fi\n"
                     "\\ifdim\\wd\\sweeptablebox>\\linewidth\\PackageWarning{{sweep}}{{Table {} is scaled down to fit the "
                     "line, its type smaller than the text's; width: text or fewer columns keep its size}}"
                     "\\resizebox{{\\linewidth}}{{!}}{{\\usebox{{\\sweeptablebox}}}}"
                     "\\else\\usebox{{\\sweeptablebox}}\\fi\\endgroup\n",
                     indent, body, id);
}

std::string preamble_lines(bool siunitx) {
  return fmt::format("% Preamble: \\usepackage{{booktabs}} \\usepackage{{graphicx}}{}\n",
                     siunitx ? " \\usepackage{siunitx}" : "");
}

}  // namespace

std::string latex_table_id(const Table& t) {
  return safe_file_name(!t.name.empty() ? t.name : !t.title.empty() ? t.title : std::string("points"));
}

std::string latex_label(const Table& t) { return t.latex.label.empty() ? "tab:" + latex_table_id(t) : t.latex.label; }

std::string latex_table(const Table& t, const std::string& campaign, Spread default_spread) {
  const Spread spread = t.spread.value_or(default_spread);
  std::string out = fmt::format("% Table {} of campaign {}: cells are {} over the succeeded runs of each point.{}\n",
                                latex_table_id(t), campaign, spread_words(spread).comment,
                                has_zero_spread(t, spread) ? " " + zero_spread_note("+/-") : "");
  const bool fit = t.latex.width != TableWidth::natural;
  if (fit) out += "\\ifdefined\\sweeptablebox\\else\\newsavebox{\\sweeptablebox}\\fi\n";
  const std::string body = tabular(grouped(t), spread);
  if (!t.latex.floating) return out + (fit ? fitted(body, "\\noindent", latex_table_id(t)) : body + "\n");
  const char* env = t.latex.width == TableWidth::text ? "table*" : "table";
  out += fmt::format("\\begin{{{}}}[tbp]\n\\centering\n\\caption{{{}}}\\label{{{}}}\n", env, caption(t, campaign, spread),
                     latex_label(t));
  return out + (fit ? fitted(body, "", latex_table_id(t)) : body + "\n") + fmt::format("\\end{{{}}}\n", env);
}

std::string latex_table_file(const Table& t, const std::string& campaign, Spread spread) {
  return fmt::format("% sweep report.tex format {}: table {} of campaign {}; \\input{{report.{}.tex}} in a paper.\n{}\n",
                     kLatexFormatVersion, latex_table_id(t), campaign, latex_table_id(t), preamble_lines(t.latex.siunitx)) +
         latex_table(t, campaign, spread);
}

std::string latex_report(const std::string& campaign, const std::vector<Table>& tables, Spread spread) {
  const bool siunitx = std::any_of(tables.begin(), tables.end(), [](const Table& t) { return t.latex.siunitx; });
  std::string out = fmt::format("% sweep report.tex format {}: every table of campaign {}; \\input this file, or one "
                                "table's report.<table>.tex.\n{}% Cells: {} over the succeeded runs of each point, unless "
                                "a table's line says otherwise.\n",
                                kLatexFormatVersion, campaign, preamble_lines(siunitx), spread_words(spread).comment);
  for (const auto& t : tables) out += "\n" + latex_table(t, campaign, spread);
  return out;
}

}  // namespace sweep::report
