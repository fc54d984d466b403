#include "spec/yaml_read.h"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>

#include "util/strings.h"

namespace sweep::spec {
namespace {

constexpr std::string_view kStrTag = "tag:yaml.org,2002:str";
constexpr std::size_t kMaxNodes = 1'000'000;  // after alias expansion
// Deeper than any experiment needs, well inside the stack. An alias inside the node it names makes a
// cycle, which would otherwise recurse without end.
constexpr int kMaxDepth = 200;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Length of a run of digits starting at `i`.
std::size_t digit_run(std::string_view s, std::size_t i) {
  std::size_t n = 0;
  while (i + n < s.size() && is_digit(s[i + n])) ++n;
  return n;
}

// YAML 1.2 core schema float: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool looks_real(std::string_view s) {
  std::size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  const std::size_t whole = digit_run(s, i);
  i += whole;
  std::size_t frac = 0;
  if (i < s.size() && s[i] == '.') frac = digit_run(s, ++i), i += frac;
  if (whole == 0 && frac == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    const std::size_t exp = digit_run(s, i);
    if (exp == 0) return false;
    i += exp;
  }
  return i == s.size();
}

bool looks_integer(std::string_view s) {
  const std::size_t sign = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  return s.size() > sign && digit_run(s, sign) == s.size() - sign;
}

// The special floats of YAML 1.2 (.inf, -.inf, .nan in their three spellings), or nullopt.
std::optional<double> special_real(std::string_view s) {
  const std::string_view body = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? s.substr(1) : s;
  if (body == ".inf" || body == ".Inf" || body == ".INF") return s[0] == '-' ? -HUGE_VAL : HUGE_VAL;
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return std::nan("");
  return std::nullopt;
}

Value plain_value(const Field& f, const Source& src, const std::string& s) {
  if (s == "true" || s == "True" || s == "TRUE") return Value(true);
  if (s == "false" || s == "False" || s == "FALSE") return Value(false);
  if (looks_integer(s)) {
    std::int64_t i = 0;
    const std::size_t skip = s[0] == '+' ? 1 : 0;
    if (std::from_chars(s.data() + skip, s.data() + s.size(), i).ec != std::errc())
      fail_at(location(f, src), fmt::format("\"{}\": integer {} is out of range (the limit is 2^63-1)", f.path, s));
    return Value(i);
  }
  if (auto special = special_real(s)) return Value(*special);
  if (looks_real(s)) {
    double d = 0;
    const std::size_t skip = s[0] == '+' ? 1 : 0;
    std::from_chars(s.data() + skip, s.data() + s.size(), d);
    return Value(d);
  }
  return Value(s);
}

// First content line of a block scalar whose indicator (| or >) is at `pos`.
SourceLocation block_content(std::string_view text, std::size_t pos, SourceLocation at) {
  std::size_t line_start = text.find('\n', pos);
  while (line_start != std::string_view::npos) {
    ++line_start;
    ++at.line;
    std::size_t i = line_start;
    while (i < text.size() && text[i] == ' ') ++i;
    if (i < text.size() && text[i] != '\n' && text[i] != '\r') {
      at.column = static_cast<int>(i - line_start) + 1;
      return at;
    }
    line_start = text.find('\n', line_start);
  }
  return at;
}

struct DocumentChecker {
  const Source& src;
  std::size_t nodes = 0;

  void check(const YAML::Node& n, int depth) {
    if (++nodes > kMaxNodes)
      fail_at(location(n, src), fmt::format("the document expands to more than {} nodes (aliases?)", kMaxNodes));
    if (depth > kMaxDepth)
      fail_at(location(n, src), fmt::format("the document nests more than {} levels deep (an alias inside the node "
                                            "it names?)",
                                            kMaxDepth));
    if (n.IsSequence())
      for (const auto& item : n) check(item, depth + 1);
    if (n.IsMap()) check_map(n, depth);
  }

  void check_map(const YAML::Node& n, int depth) {
    std::map<std::string, int> first_line;
    for (const auto& kv : n) {
      if (!kv.first.IsScalar())
        fail_at(location(kv.first, src), fmt::format("map keys must be names, got {}", describe(kv.first)));
      const auto [it, fresh] = first_line.emplace(kv.first.Scalar(), kv.first.Mark().line + 1);
      if (!fresh)
        fail_at(location(kv.first, src),
                fmt::format("duplicate key \"{}\" (first defined at line {})", it->first, it->second));
      check(kv.second, depth + 1);
    }
  }
};

}  // namespace

SourceLocation location(const YAML::Node& n, const Source& src) {
  if (!src.has_lines || !n.IsDefined() || n.Mark().is_null()) return SourceLocation{src.file};
  return SourceLocation{src.file, n.Mark().line + 1, n.Mark().column + 1};
}

SourceLocation location(const Field& f, const Source& src) {
  const bool key_known = f.key.IsDefined() && !f.key.Mark().is_null();
  if (key_known && (f.value.IsNull() || f.value.Mark().is_null())) return location(f.key, src);
  return location(f.value, src);
}

SourceLocation content_location(const Field& f, const Source& src) {
  SourceLocation at = location(f, src);
  if (!f.value.IsScalar() || at.line == 0) return at;
  const auto pos = static_cast<std::size_t>(f.value.Mark().pos);
  if (pos >= src.text.size()) return at;
  const char c = src.text[pos];
  if (c == '"' || c == '\'') return at.shifted(1);
  if (c == '|' || c == '>') return block_content(src.text, pos, at);
  return at;
}

std::string describe(const YAML::Node& n) {
  if (!n.IsDefined() || n.IsNull()) return "nothing (null)";
  if (n.IsMap()) return "a map";
  if (n.IsSequence()) return "a list";
  return fmt::format("\"{}\"", n.Scalar());
}

void fail_expected(const Field& f, const Source& src, std::string_view expected) {
  fail_at(location(f, src), fmt::format("\"{}\" must be {}, got {}", f.path, expected, describe(f.value)));
}

std::vector<Field> map_fields(const Field& f, const Source& src) {
  if (!f.value.IsMap()) fail_expected(f, src, "a map");
  std::vector<Field> out;
  for (const auto& kv : f.value)
    out.push_back(Field{f.path.empty() ? kv.first.Scalar() : f.path + "." + kv.first.Scalar(), kv.first, kv.second});
  return out;
}

std::vector<Field> list_items(const Field& f, const Source& src) {
  if (!f.value.IsSequence()) fail_expected(f, src, "a list");
  std::vector<Field> out;
  std::size_t i = 0;
  for (const auto& item : f.value) out.push_back(Field{fmt::format("{}[{}]", f.path, i++), YAML::Node(), item});
  return out;
}

void check_keys(const std::vector<Field>& fields, std::span<const std::string_view> allowed, const Source& src) {
  const std::vector<std::string> names(allowed.begin(), allowed.end());
  for (const Field& f : fields) {
    const std::string key = key_name(f);
    if (std::find(names.begin(), names.end(), key) != names.end()) continue;
    const std::string hint = did_you_mean(key, names);
    fail_at(location(f.key, src), hint.empty()
                                      ? fmt::format("unknown key \"{}\" (valid keys: {})", key, join(names, ", "))
                                      : fmt::format("unknown key \"{}\"{}", key, hint));
  }
}

const Field* find_field(const std::vector<Field>& fields, std::string_view key) {
  for (const Field& f : fields)
    if (key_name(f) == key) return &f;
  return nullptr;
}

std::string key_name(const Field& f) { return f.key.IsScalar() ? f.key.Scalar() : std::string(); }

std::string scalar_text(const Field& f, const Source& src, std::string_view expected) {
  if (!f.value.IsScalar()) fail_expected(f, src, expected);
  return f.value.Scalar();
}

Value scalar_value(const Field& f, const Source& src) {
  if (!f.value.IsScalar()) fail_expected(f, src, "a single value (number, string or bool)");
  const std::string& tag = f.value.Tag();
  if (tag == "!" || tag == kStrTag) return Value(f.value.Scalar());
  if (tag != "?") fail_at(location(f, src), fmt::format("\"{}\": unsupported YAML tag \"{}\"", f.path, tag));
  return plain_value(f, src, f.value.Scalar());
}

std::int64_t integer_in(const Field& f, const Source& src, std::int64_t lo, std::int64_t hi,
                        std::string_view expected) {
  if (!f.value.IsScalar() || f.value.Tag() != "?") fail_expected(f, src, expected);
  const Value v = plain_value(f, src, f.value.Scalar());
  if (!v.is_int() || v.as_int() < lo || v.as_int() > hi) fail_expected(f, src, expected);
  return v.as_int();
}

bool is_identifier(std::string_view name) {
  const auto start = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (name.empty() || !start(name[0])) return false;
  for (char c : name)
    if (!start(c) && !is_digit(c)) return false;
  return true;
}

void check_document(const YAML::Node& root, const Source& src) { DocumentChecker{src}.check(root, 0); }

}  // namespace sweep::spec
