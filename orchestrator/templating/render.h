#pragma once
// Job-script and command templates (Mustache, via kainjow). Pure.
//
// Contract: in a shell template every `{{name}}` is replaced by the shell-quoted value, so any string
// reaches the program as one literal word and is never executed; `{{{name}}}` and `{{& name}}` insert
// the value raw (for trusted, pre-rendered fragments such as the rendered command). Sections
// `{{#name}}...{{/name}}` render when the value is non-empty and not "false"/"0"; inverted sections
// `{{^name}}` otherwise. A name that is not among the variables is an error, never an empty string.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.h"

namespace sweep::templating {

using Variables = std::map<std::string, std::string, std::less<>>;

enum class Escape { shell, none };

/// POSIX-shell quoting: returns `text` unchanged when it consists only of [A-Za-z0-9_@%+=:,./-] and
/// is non-empty, otherwise wraps it in single quotes with each ' written as '\''.
std::string shell_quote(std::string_view text);

class Template {
 public:
  /// Parses `text`. `where` is where the template text starts (a file, or a YAML scalar's location).
  /// Syntax errors throw Error(invalid_experiment) at `where` naming the problem.
  Template(std::string text, SourceLocation where);

  /// Every variable name the template refers to (sections included), each once, in order.
  const std::vector<std::string>& names() const { return names_; }

  /// Throws Error(invalid_experiment) at the template's location for the first referenced name that
  /// is not in `available`, listing a "did you mean" suggestion.
  void check_names(const std::vector<std::string>& available) const;

  /// Renders with `vars`. Throws Error(invalid_experiment) for a referenced name missing from vars.
  std::string render(const Variables& vars, Escape escape = Escape::shell) const;

  const std::string& text() const { return text_; }

 private:
  std::string text_;
  SourceLocation where_;
  std::vector<std::string> names_;
};

/// Template files are limited to this many bytes.
inline constexpr std::size_t kMaxTemplateBytes = 1u << 20;

/// Loads a template file. Throws Error(io) when it cannot be read, is not a regular file (a FIFO, a
/// device) or is over kMaxTemplateBytes.
Template load_template_file(const std::string& path);

}  // namespace sweep::templating
