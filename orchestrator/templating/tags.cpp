#include "templating/tags.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <optional>

#include "util/strings.h"

namespace sweep::templating {

namespace {

/// The first character of a tag's contents and what it makes of the tag. A non-empty `unsupported`
/// names a Mustache feature that sweep rejects.
struct Sigil {
  char c;
  TagKind kind;
  std::string_view unsupported;
};

constexpr std::array<Sigil, 7> kSigils{{
    {'#', TagKind::section, ""},
    {'^', TagKind::inverted, ""},
    {'/', TagKind::close, ""},
    {'&', TagKind::raw, ""},
    {'!', TagKind::comment, ""},
    {'>', TagKind::comment, "partials ({{> name}}) are not supported"},
    {'=', TagKind::comment, "set-delimiter tags ({{=<% %>=}}) are not supported"},
}};

[[noreturn]] void fail(std::string_view text, std::size_t offset, const SourceLocation& where,
                       std::string_view message) {
  const std::string_view before = text.substr(0, offset);
  const std::size_t line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
  const std::size_t line_start = before.rfind('\n');
  const std::size_t column = offset - (line_start == std::string_view::npos ? 0 : line_start + 1) + 1;
  fail_at(where, fmt::format("template line {}, column {}: {}", line, column, message));
}

bool is_name_char(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte > 0x20 && byte != 0x7f && c != '{' && c != '}';
}

/// Classifies a tag from its trimmed contents; `triple` for {{{...}}}.
Tag classify(std::string_view contents, bool triple, std::size_t offset, std::string_view text,
             const SourceLocation& where) {
  Tag tag{triple ? TagKind::raw : TagKind::variable, "", offset};
  const auto sigil = std::find_if(kSigils.begin(), kSigils.end(),
                                  [&](const Sigil& s) { return !triple && !contents.empty() && contents[0] == s.c; });
  if (sigil != kSigils.end()) {
    if (!sigil->unsupported.empty()) fail(text, offset, where, sigil->unsupported);
    tag.kind = sigil->kind;
    if (tag.kind == TagKind::comment) return tag;
    contents = trim(contents.substr(1));
  }
  if (contents.empty()) fail(text, offset, where, "empty tag: a variable name is needed");
  if (contents == ".") fail(text, offset, where, "the implicit iterator {{.}} is not supported");
  if (!std::all_of(contents.begin(), contents.end(), is_name_char))
    fail(text, offset, where, fmt::format("\"{}\" is not a valid variable name", contents));
  tag.name = std::string(contents);
  return tag;
}

/// Keeps `open` (the stack of open section tags) balanced; throws on a mismatched close.
void balance(const Tag& tag, std::vector<Tag>& open, std::string_view text, const SourceLocation& where) {
  if (tag.kind == TagKind::section || tag.kind == TagKind::inverted) open.push_back(tag);
  if (tag.kind != TagKind::close) return;
  if (open.empty())
    fail(text, tag.offset, where, fmt::format("{{{{/{}}}}} closes a section that was never opened", tag.name));
  if (open.back().name != tag.name)
    fail(text, tag.offset, where,
         fmt::format("{{{{/{}}}}} does not match the open section \"{}\"", tag.name, open.back().name));
  open.pop_back();
}

void add_once(std::vector<std::string>& names, const std::string& name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}

/// The tag as kainjow should see it: section tags renamed to their truth variable.
std::string engine_tag(const Tag& tag, std::string_view original) {
  constexpr std::array<std::pair<TagKind, char>, 3> kRenamed{
      {{TagKind::section, '#'}, {TagKind::inverted, '^'}, {TagKind::close, '/'}}};
  for (const auto& [kind, sigil] : kRenamed)
    if (tag.kind == kind) return fmt::format("{{{{{}{}{}}}}}", sigil, kSectionPrefix, tag.name);
  return std::string(original);
}

/// Where the line of a standalone tag starts and where the next line starts, when the tag at
/// [begin, end) is a section, inverted, close or comment tag alone on its line apart from blanks.
/// Mustache drops such lines entirely; kainjow does not always, so scan() removes them itself.
std::optional<std::pair<std::size_t, std::size_t>> standalone_line(std::string_view text, std::size_t begin,
                                                                   std::size_t end, TagKind kind) {
  if (kind == TagKind::variable || kind == TagKind::raw) return std::nullopt;
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  std::size_t line_start = begin;
  while (line_start > 0 && blank(text[line_start - 1])) --line_start;
  if (line_start > 0 && text[line_start - 1] != '\n') return std::nullopt;
  std::size_t next = end;
  while (next < text.size() && blank(text[next])) ++next;
  if (next < text.size() && text[next] == '\r' && next + 1 < text.size() && text[next + 1] == '\n') ++next;
  if (next < text.size() && text[next] != '\n') return std::nullopt;
  return std::pair{line_start, std::min(next + 1, text.size())};
}

}  // namespace

Scan scan(std::string_view text, const SourceLocation& where) {
  Scan out;
  std::vector<Tag> open;
  std::size_t pos = 0, copied = 0;
  while ((pos = text.find("{{", pos)) != std::string_view::npos) {
    const bool triple = pos + 2 < text.size() && text[pos + 2] == '{';
    const std::string_view closer = triple ? "}}}" : "}}";
    const std::size_t body = pos + (triple ? 3 : 2);
    const std::size_t end = text.find(closer, body);
    if (end == std::string_view::npos) fail(text, pos, where, fmt::format("unclosed tag: no \"{}\"", closer));
    Tag tag = classify(trim(text.substr(body, end - body)), triple, pos, text, where);
    balance(tag, open, text, where);
    if (tag.kind != TagKind::comment && tag.kind != TagKind::close) add_once(out.names, tag.name);
    if (tag.kind == TagKind::section || tag.kind == TagKind::inverted) add_once(out.section_names, tag.name);
    const std::size_t tag_end = end + closer.size();
    const auto line = standalone_line(text, pos, tag_end, tag.kind);
    out.engine_text.append(text.substr(copied, (line ? line->first : pos) - copied));
    out.engine_text.append(engine_tag(tag, text.substr(pos, tag_end - pos)));
    copied = pos = line ? line->second : tag_end;
    out.tags.push_back(std::move(tag));
  }
  out.engine_text.append(text.substr(copied));
  if (!open.empty())
    fail(text, open.back().offset, where, fmt::format("section \"{}\" is never closed", open.back().name));
  return out;
}

}  // namespace sweep::templating
