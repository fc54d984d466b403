#pragma once
// Decimal alignment of LaTeX value columns: the column spec and each row's cells of a column of
// "mean ± uncertainty" texts, aligned on the decimal point, with plain tabular columns (no package) or
// siunitx S columns whose table-format is computed from the texts. Pure.
#include <string>
#include <vector>

namespace sweep::report {

/// One cell's number texts, as the rounding gives them ("12.35", "0.04"; "1.2e+15"). `mean` "" = an
/// empty cell (no succeeded run); `pm` "" = no uncertainty shown.
struct NumberText {
  std::string mean;
  std::string pm;
};

/// A value column as LaTeX: `spec` for the tabular's preamble, the number of tabular columns it spans
/// (what a header over it must \multicolumn), and one cell text per row ("&"-joined when it spans more
/// than one).
struct AlignedColumn {
  std::string spec;
  int span = 1;
  std::vector<std::string> cells;
};

/// Without a package: `r@{}l` (integer part right, ".fraction" left), and with any uncertainty
/// `r@{}l@{\,}r@{}l` (the same for "± uncertainty"); an empty cell is "--" across the span.
AlignedColumn align_plain(const std::vector<NumberText>& column);

/// siunitx: one `S[table-format=..., separate-uncertainty, table-align-uncertainty=false]` column (the
/// means aligned on the point, each "± uncertainty" after its mean); "mean \pm pm" cells; "{--}" for an
/// empty cell. A mean and uncertainty with one power of ten are written in siunitx's compact form
/// ("5.03e-06", "0.12e-06" -> "5.03(12)e-6", printed (5.03 ± 0.12) × 10^-6); other exponents in a cell
/// with an uncertainty are written out ("1.242 \pm 0.00001967").
/// The table-format holds the widest sign, integer part, decimals (siunitx pads a mean to
/// its uncertainty's decimals), uncertainty digits and exponent of the column.
AlignedColumn align_siunitx(const std::vector<NumberText>& column);

/// The column type of a row-label column: "r" when every non-empty value is a number (integers and
/// decimals right-aligned), "l" for text.
std::string key_column_spec(const std::vector<std::string>& values);

}  // namespace sweep::report
