#pragma once
// Style files (docs/reports.md#restyling): a user's gnuplot file, named by `style:` (a figure) or
// `figure_style:` (every figure of a report), that a figure's script `load`s after its generated settings
// and before it plots, in each of its outputs, so restyling lives in the user's file and survives
// `sweep report`. A report may be made from a database someone sent, whose stored experiment names the
// file: so a style file may hold only `set` and `unset` lines (optionally under
// `if (sweep_output eq 'svg'|'pdf'|'paper')`), none that could run a command or write a file.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/report_spec.h"

namespace sweep::report {

/// The first line of a style file's `text` that is refused, with why; nullopt when every line is blank,
/// a comment, or a `set`/`unset` of something other than the terminal and the output files, with no
/// backquote, `system(`, `@`, `;`, `|` or `<`, and not continued onto the next line.
struct StyleProblem {
  int line = 0, column = 0;
  std::string message;
};
std::optional<StyleProblem> check_style_text(std::string_view text);

/// `style.path` made absolute (against `base_dir`, the experiment's directory; "" = the directory of the
/// file `style.at` names, e.g. a --spec file), after checking the file:
/// Error(invalid_experiment) at `style.at` when it is missing or unreadable, at <file>:<line>:<column>
/// when check_style_text refuses it.
std::string resolve_style(const spec::StyleFile& style, const std::string& base_dir);

/// `spec` with the report's figure_styles put before each figure's own styles (the join's figures
/// included), every path resolved (resolve_style).
spec::ReportSpec with_styles(spec::ReportSpec spec, const std::string& base_dir);

/// `figures` (default figures) with `styles` (the report's figure_styles) resolved and loaded first.
std::vector<spec::ReportFigure> with_styles(std::vector<spec::ReportFigure> figures,
                                            const std::vector<spec::StyleFile>& styles, const std::string& base_dir);

}  // namespace sweep::report
