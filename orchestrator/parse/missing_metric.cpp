#include "parse/missing_metric.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cctype>

namespace sweep::parse {
namespace {

constexpr std::array<std::string_view, 2> kStreams{"stdout", "stderr"};
constexpr std::string_view kMeta = "\\.[]()*+?{}|^$";

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

/// The standard streams `rule` does not read: where its metric may have gone instead.
std::vector<std::string> other_streams(const Rule& rule) {
  std::vector<std::string> out;
  for (const auto stream : kStreams)
    if (rule.source != stream && rule.source != kBothStreams) out.emplace_back(stream);
  return out;
}

/// How often `rule` matches in `text` when it reads `stream` instead.
std::size_t matches_on(const Rule& rule, const std::string& stream, std::string_view text) {
  Rule moved = rule;
  moved.source = stream;
  moved.reduce.clear();
  const Extraction e = Extractor({moved}).extract({{stream, text}});
  return e.matches.empty() ? 0 : e.matches.front().count;
}

std::string what_rule(const Rule& rule) {
  const std::string where = rule.where.str();
  return fmt::format("{} rule \"{}\"{}{} (reads {})", rule.kind == Rule::Kind::json ? "json" : "regex", rule.name,
                     where.empty() ? "" : " at ", where, rule.source);
}

/// The lines for one regex or json rule that produced nothing.
std::string explain_rule(const Rule& rule, const std::map<std::string, std::string_view>& sources) {
  std::string out = fmt::format("  the {} matched no line\n", what_rule(rule));
  for (const auto& stream : other_streams(rule)) {
    const auto text = sources.find(stream);
    if (text == sources.end()) continue;
    if (const std::size_t n = matches_on(rule, stream, text->second); n > 0)
      return out + fmt::format("  it matches {} time{} on {}{}\n  to change: give the rule \"source: {}\" (or \"source: both\")",
                               n, n == 1 ? "" : "s", stream,
                               stream == "stderr" ? " (Python's logging and many libraries print there)" : "", stream);
  }
  std::vector<std::string> needles;
  if (rule.kind == Rule::Kind::regex) needles.push_back(literal_prefix(rule.pattern));
  else needles.push_back("\"" + rule.pattern.substr(rule.pattern.rfind('.') + 1) + "\"");
  needles.push_back(rule.name);
  for (const auto& [source, text] : sources) {
    if (source != rule.source && !(rule.source == kBothStreams && (source == "stdout" || source == "stderr"))) continue;
    if (const auto near = closest_line(text, needles))
      return out + fmt::format("  closest line, {}:{} (it holds \"{}\"): {}\n  to change: correct the rule's {} so that it "
                               "matches that line",
                               source, near->line, near->needle, near->text,
                               rule.kind == Rule::Kind::regex ? "regex" : "json key");
  }
  const auto read = sources.find(rule.source);
  const bool empty = rule.source != kBothStreams && (read == sources.end() || read->second.empty());
  return out + fmt::format("  {} no line that holds \"{}\"\n  to change: make the program print the metric, or point the "
                           "rule's source at where it does",
                           empty ? fmt::format("{} is empty or missing, so", rule.source) : rule.source + " has", rule.name);
}

}  // namespace

std::string literal_prefix(std::string_view pattern) {
  if (!pattern.empty() && pattern.front() == '^') pattern.remove_prefix(1);
  const auto end = pattern.find_first_of(kMeta);
  std::string_view prefix = pattern.substr(0, end);
  // A quantifier binds to the character before it, which is then not a required literal.
  if (end != std::string_view::npos && !prefix.empty() && std::string_view("*?{").find(pattern[end]) != std::string_view::npos)
    prefix.remove_suffix(1);
  while (!prefix.empty() && std::isspace(static_cast<unsigned char>(prefix.back()))) prefix.remove_suffix(1);
  return std::string(prefix);
}

std::optional<NearLine> closest_line(std::string_view text, const std::vector<std::string>& needles) {
  const std::string haystack = lower(text);
  for (const auto& needle : needles) {
    if (needle.size() < 3) continue;
    const auto at = haystack.find(lower(needle));
    if (at == std::string::npos) continue;
    const auto begin = text.rfind('\n', at);
    const std::size_t from = begin == std::string_view::npos ? 0 : begin + 1;
    const std::size_t to = std::min(text.find('\n', at), text.size());
    NearLine near;
    near.line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(from), '\n'));
    near.text = std::string(text.substr(from, std::min(to - from, kNearLineBytes)));
    if (!near.text.empty() && near.text.back() == '\r') near.text.pop_back();
    near.needle = needle;
    return near;
  }
  return std::nullopt;
}

std::string explain_missing(const std::vector<Rule>& rules, std::string_view metric,
                            const std::map<std::string, std::string_view>& sources) {
  std::vector<std::string> lines;
  for (const Rule& rule : rules)
    if (rule.kind != Rule::Kind::parser && rule.name == metric) lines.push_back(explain_rule(rule, sources));
  if (!lines.empty()) {
    std::string out;
    for (const auto& l : lines) out += (out.empty() ? "" : "\n") + l;
    return out;
  }
  const bool parsers = std::any_of(rules.begin(), rules.end(), [](const Rule& r) { return r.kind == Rule::Kind::parser; });
  return fmt::format("  no regex or json rule declares \"{}\"{}, and no metric line on stdout or stderr named it\n"
                     "  to change: add a rule for it under `metrics:`, or take it out of success.metrics",
                     metric, parsers ? " (nor did a built-in parser produce it)" : "");
}

}  // namespace sweep::parse
