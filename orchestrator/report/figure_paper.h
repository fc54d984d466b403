#pragma once
// The paper version of a figure (docs/reports.md#figures-for-a-paper): gnuplot's cairolatex terminal
// draws the lines into figures/paper/<file>.pdf and writes every text (tics, labels, key, titles) into
// figures/paper/<file>.tex, which LaTeX typesets in the document's own font at its size. In that file
// every text is LaTeX code, so each is escaped (latex_text) before it is quoted for gnuplot. Pure.
#include <cstddef>
#include <string>
#include <string_view>

#include "spec/report_spec.h"

namespace sweep::report {

/// The paper figure's directory under figures/ (the .gp `cd`s into it, so the .tex names its graphic
/// without a directory: `\graphicspath` finds it).
inline constexpr std::string_view kPaperDir = "paper";

struct PaperSize {
  double width_in = 0, height_in = 0;
};

/// column: 3.0 in wide, 0.62 of that high per row of panels; text: 6.2 in wide, 2.3 in high per row.
/// Both fit the narrowest common two-column layout, article's on A4 (a 221 pt = 3.06 in column, 452 pt
/// text), so also article's on letter paper (229.5 pt), ACM's (241 pt) and IEEE's (252 pt).
/// inches: `inches` wide, 0.62 of that high per row.
PaperSize paper_size(spec::FigureWidth width, std::size_t rows, double inches = 0);

/// The paper version's graphic name: `file`, "-", and 10 hex digits of the SHA-256 of `campaign` (a
/// name graphicx reads whatever the label holds; two campaigns' figures named alike differ).
std::string paper_graphic_name(std::string_view file, std::string_view campaign);

/// The terminal and output lines of the paper version, after `cd` into kPaperDir.
std::string paper_terminal(const PaperSize& size, std::string_view file);

/// `text` (from a workload, a database or the experiment) as a gnuplot string whose content is LaTeX text
/// that typesets as `text` and runs no TeX command: latex_text, then gnuplot_string (util/sinks.h).
std::string paper_text(std::string_view text);

}  // namespace sweep::report
