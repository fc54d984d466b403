#pragma once
// Style files (docs/reports.md#restyling): a user's gnuplot file, named by `style:` (a figure) or
// `figure_style:` (every figure of a report), whose lines a figure's script carries after its generated
// settings and before it plots, in each of its outputs, so restyling lives in the user's file and survives
// `sweep report`. A report may be made from a database someone sent, whose stored experiment names the
// file: so a style file may hold only `set` and `unset` lines (optionally under
// `if (sweep_output eq 'svg'|'pdf'|'paper')`), none that could run a command or write a file; it must be
// the reporting user's own (or root's) and writable by nobody else (util/safe_files.h, with the lab's
// group sharing); and it is read once: the checked text goes into the script, never the path.
#include <cstddef>
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

/// Style files are limited to this many bytes.
constexpr std::size_t kStyleFileMaxBytes = 1u << 20;

/// `style` with its path made absolute (against `base_dir`, the experiment's directory; "" = the
/// directory of the file `style.at` names, e.g. a --spec file) and its `text` read once (as lines ended by
/// "\n", CRs dropped) and checked:
/// Error(invalid_experiment) at `style.at` when it is missing, a symlink, not a regular file, another
/// user's, writable by others, or over kStyleFileMaxBytes; at <file>:<line>:<column> when
/// check_style_text refuses it.
spec::StyleFile resolve_style(const spec::StyleFile& style, const std::string& base_dir);

/// `spec` with the report's figure_styles put before each figure's own styles (the join's figures
/// included), every one resolved and read (resolve_style).
spec::ReportSpec with_styles(spec::ReportSpec spec, const std::string& base_dir);

/// `figures` (default figures) with `styles` (the report's figure_styles) resolved and loaded first.
std::vector<spec::ReportFigure> with_styles(std::vector<spec::ReportFigure> figures,
                                            const std::vector<spec::StyleFile>& styles, const std::string& base_dir);

}  // namespace sweep::report
