#pragma once
// The tag scanner behind Template: finds every Mustache tag, checks what sweep supports, and prepares
// the text handed to kainjow. Internal to templating/. Pure.
#include <string>
#include <string_view>
#include <vector>

#include "util/error.h"

namespace sweep::templating {

enum class TagKind { variable, raw, section, inverted, close, comment };

struct Tag {
  TagKind kind;
  std::string name;    // trimmed; empty for comments
  std::size_t offset;  // of the opening "{{" in the template text
};

/// What the renderer needs to know about a template.
struct Scan {
  std::vector<Tag> tags;
  std::vector<std::string> names;          // every referenced name, each once, in order of appearance
  std::vector<std::string> section_names;  // the subset used as {{#name}} or {{^name}}, each once
  std::string engine_text;                 // the text for kainjow, section names renamed (see below)
};

/// Prefix of the section names in Scan::engine_text. Sections test a boolean while {{name}} inserts a
/// string, so the engine sees two variables: "name" (the string) and kSectionPrefix + "name" (its
/// truth). The prefix is a control character, which scan() never accepts inside a name.
inline constexpr std::string_view kSectionPrefix = "\x1f";

/// Scans `text`. Throws Error(invalid_experiment) at `where`, naming the line and column inside the
/// template, for an unclosed tag, an empty or malformed name, partials ({{> x}}), set-delimiter tags
/// ({{=<% %>=}}), the implicit iterator {{.}}, and unbalanced sections.
Scan scan(std::string_view text, const SourceLocation& where);

}  // namespace sweep::templating
