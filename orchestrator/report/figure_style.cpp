#include "report/figure_style.h"

#include <fmt/core.h>

#include <array>
#include <filesystem>
#include <regex>
#include <sstream>

#include "util/error.h"
#include "util/safe_files.h"

namespace sweep::report {
namespace {

namespace fs = std::filesystem;

/// What `set`/`unset` may not name: where output goes, and fit's log file. A word is refused when it
/// begins one of these (gnuplot takes "set o" and "set out" for "set output").
constexpr std::array<std::string_view, 6> kForbiddenSettings{"output", "print", "table", "terminal", "fit", "history"};

/// Text that could run a command: backquote substitution, system(), macros, a second command, pipes and
/// data read from a command.
struct Forbidden {
  std::string_view pattern;
  std::string_view what;
};
constexpr std::array<Forbidden, 6> kForbidden{{{R"(`)", "a backquote (it runs a command)"},
                                               {R"(\bsystem\s*\()", "system() (it runs a command)"},
                                               {R"(@)", "@ (a macro)"},
                                               {R"(;)", "; (a second command on the line)"},
                                               {R"(\|)", "| (a pipe)"},
                                               {R"(<)", "< (data read from a command)"}}};

const std::regex& statement() {
  static const std::regex re(R"(^\s*(?:if\s*\(\s*sweep_output\s+eq\s+'(?:svg|pdf|paper)'\s*\)\s*)?(set|unset)\s+([A-Za-z]*))");
  return re;
}

std::optional<std::string> line_problem(const std::string& line) {
  std::smatch m;
  if (!std::regex_search(line, m, statement()))
    return "a style file holds only set and unset lines (optionally under if (sweep_output eq 'paper'))";
  const std::string word = m[2].str();
  for (const auto name : kForbiddenSettings)
    if (!word.empty() && name.substr(0, word.size()) == word)
      return fmt::format("\"{} {}\": the terminal and the output are sweep's", m[1].str(), word);
  for (const auto& f : kForbidden)
    if (std::regex_search(line, std::regex(std::string(f.pattern)))) return fmt::format("{} is not allowed", f.what);
  if (!line.empty() && line.back() == '\\') return "a line continued onto the next: write it on one line";
  return std::nullopt;
}

/// `text` with each line's CR dropped and every line ended by "\n": the text checked is the text used.
std::string lines_of(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace

std::optional<StyleProblem> check_style_text(std::string_view text) {
  std::istringstream in{lines_of(text)};
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    if (auto why = line_problem(line)) return StyleProblem{number, static_cast<int>(first) + 1, *why};
  }
  return std::nullopt;
}

spec::StyleFile resolve_style(const spec::StyleFile& style, const std::string& base_dir) {
  const fs::path given(style.path);
  const fs::path base = base_dir.empty() ? fs::absolute(style.at.file).parent_path() : fs::path(base_dir);
  const fs::path path = (given.is_absolute() ? given : base / given).lexically_normal();
  spec::StyleFile out{path.string(), style.at, {}};
  try {
    out.text = lines_of(read_own_file(out.path, kStyleFileMaxBytes));  // one read: the text checked is the text used
  } catch (const Error& e) {
    fail_at(style.at, fmt::format("style file \"{}\" ({}): {} (a style file is read as your own regular file, "
                                  "writable by nobody else: copy it, or chmod go-w it; docs/reports.md#restyling)",
                                  style.path, out.path, e.what()));
  }
  if (const auto problem = check_style_text(out.text))
    fail_at(SourceLocation{out.path, problem->line, problem->column},
            fmt::format("{} (a style file restyles a figure; docs/reports.md#restyling)", problem->message));
  return out;
}

std::vector<spec::ReportFigure> with_styles(std::vector<spec::ReportFigure> figures,
                                            const std::vector<spec::StyleFile>& styles, const std::string& base_dir) {
  for (auto& g : figures) {
    std::vector<spec::StyleFile> all = styles;
    all.insert(all.end(), g.styles.begin(), g.styles.end());
    for (auto& s : all) s = resolve_style(s, base_dir);
    g.styles = std::move(all);
  }
  return figures;
}

spec::ReportSpec with_styles(spec::ReportSpec spec, const std::string& base_dir) {
  spec.figures = with_styles(std::move(spec.figures), spec.figure_styles, base_dir);
  if (spec.join) spec.join->figures = with_styles(std::move(spec.join->figures), spec.figure_styles, base_dir);
  for (auto& s : spec.figure_styles) s = resolve_style(s, base_dir);
  return spec;
}

}  // namespace sweep::report
