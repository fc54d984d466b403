#pragma once
// One quoting or naming function per sink that text from a workload or a database reaches (gnuplot,
// file names, terminals, LaTeX, Markdown, spreadsheets). Nothing passed through them is ever code in
// that sink: a metric name such as "m\nsystem(\"id\")" stays text. Pure. JSON, XML and RFC 4180
// quoting live in util/escape.h.
#include <string>
#include <string_view>

namespace sweep {

/// `text` as a single-quoted gnuplot string: quotes doubled, every control character (C0, DEL) written
/// as the four visible characters \xNN, so the string cannot end its line. ("it's" -> 'it''s')
std::string gnuplot_string(std::string_view text);

/// `text` for the rest of a gnuplot `#` comment line: control characters, DEL and backslashes (a final
/// one would continue the comment onto the next line) written as \xNN.
std::string gnuplot_comment(std::string_view text);

/// A file name made from `text` (a metric or figure name): 1..100 characters from [A-Za-z0-9._+-], not
/// starting with '.' or '-'. A name that is already such is returned as it is; any other gets its
/// unsafe characters replaced by '_', is cut to 80 characters and gets "-" and the first 10 hex digits
/// of its SHA-256, so two different names never share a file ("a/b" and "a_b" differ).
std::string safe_file_name(std::string_view text);

/// `text` safe to print on a terminal: C0 controls (ESC included, and newline and tab), DEL and
/// backslash written as \xNN; UTF-8 C1 controls (U+0080..U+009F), bidirectional overrides, embeddings and
/// isolates (U+202A..U+202E, U+2066..U+2069), zero-width and direction marks (U+200B..U+200F) and the BOM
/// as \uNNNN; invalid UTF-8 bytes as \xNN.
/// With `keep_lines` (a whole document printed as lines: a report, a comparison), newline, tab and
/// backslash pass as they are and every other control is escaped.
std::string terminal_text(std::string_view text, bool keep_lines = false);

/// `text` as LaTeX text: its special characters escaped (\ { } $ & # ^ _ % ~ < > |), control characters
/// written as a visible \textbackslash{}xNN, so none ever reaches LaTeX, and the invisible format
/// characters terminal_text names (a right-to-left override stops pdflatex) as \textbackslash{}uNNNN; "{}" breaks the pairs TeX's fonts
/// join into one glyph (-- `` '' !` ?` ,,), so "--fast" prints as typed.
std::string latex_text(std::string_view text);

/// `text` as a Markdown table cell: | escaped, & < > as HTML entities (so no raw HTML), control characters
/// (newline included) as spaces.
std::string markdown_cell(std::string_view text);

/// A report CSV cell under the formula policy (docs/reports.md): a text cell that starts with = + - @,
/// a tab or a CR gets a leading ' so a spreadsheet does not run it as a formula; a number such as -1.5
/// or a percentage such as -20.0% stays as it is. Then quoted as csv_field does.
std::string csv_report_cell(std::string_view text);

}  // namespace sweep
