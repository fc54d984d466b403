#include "parse/extract.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <optional>

#include "parse/builtin_parsers.h"
#include "parse/collector.h"
#include "parse/json_lines.h"
#include "parse/metric_lines.h"
#include "parse/reduce.h"
#include "parse/regex_rule.h"
#include "util/strings.h"

namespace sweep::parse {

namespace {

/// The sources whose JSON lines are read as metric lines, in this order.
constexpr std::array<std::string_view, 2> kMetricLineSources{"stdout", "stderr"};

bool reads_metric_lines(std::string_view source) {
  return std::find(kMetricLineSources.begin(), kMetricLineSources.end(), source) != kMetricLineSources.end();
}

/// Whether `rule` reads `source`: its own, or stdout and stderr for kBothStreams.
bool reads(const Rule& rule, std::string_view source) {
  return rule.source == source || (rule.source == kBothStreams && reads_metric_lines(source));
}

/// The reduction `rule` names; nullopt when it names none. Throws at rule.where for an unknown name or a
/// parser with one (its rows are per index).
std::optional<Reduce> reduction_of(const Rule& rule) {
  if (rule.reduce.empty()) return std::nullopt;
  if (rule.kind == Rule::Kind::parser)
    fail_at(rule.where, fmt::format("parser \"{}\" takes no reduce (its rows are per index)", rule.pattern));
  const std::optional<Reduce> how = reduction_named(rule.reduce);
  if (!how)
    fail_at(rule.where, fmt::format("metric \"{}\": unknown reduction \"{}\" (available: {}){}", rule.name, rule.reduce,
                                    join(reduction_names(), ", "), did_you_mean(rule.reduce, reduction_names())));
  return how;
}

}  // namespace

/// A rule ready to apply: a compiled regex, a json key split into its dotted path, or a built-in parser.
struct Extractor::Compiled {
  std::optional<RegexRule> regex;
  const BuiltinParser* parser = nullptr;
  std::vector<std::string> path;
  std::string needle;  // what a JSON line must contain to be worth parsing for this rule
  std::optional<Reduce> reduce;  // the rule's `reduce`, nullopt when not given

  /// Throws Error(invalid_experiment) at rule.where for a rule that cannot be applied.
  static std::unique_ptr<Compiled> from(const Rule& rule);

  /// One pass over the lines of `source`: applies the json rules that read it and, for stdout and
  /// stderr, the metric-line reader. Each candidate line is parsed once.
  static void read_json_lines(const std::vector<Rule>& rules, const std::vector<Compiled*>& compiled,
                              const std::string& source, std::string_view text, Collector& out);
};

namespace {

/// Adds the observation of json rule `rule` (number `index`) on one parsed line, if the line holds its key.
void apply_json_rule(const Rule& rule, std::size_t index, const std::vector<std::string>& path, std::string_view source,
                     std::size_t line, const nlohmann::json& object, Collector& out) {
  const nlohmann::json* found = find_key(object, rule.pattern, path);
  if (!found) return;
  double value = 0;
  if (found->is_number()) {
    value = found->get<double>();
    if (std::isfinite(value)) return out.add(rule.name, std::nullopt, value, rule.unit, rule.better, index);
    return out.bad_number(found->dump(), NumberStatus::not_finite, source, line, rule.name);
  }
  if (found->is_string()) {
    if (out.number(found->get_ref<const std::string&>(), source, line, rule.name, value))
      out.add(rule.name, std::nullopt, value, rule.unit, rule.better, index);
    return;
  }
  out.bad_number(found->dump(), NumberStatus::not_a_number, source, line, rule.name);
}

}  // namespace

Extractor::Extractor(std::vector<Rule> rules) : rules_(std::move(rules)) {
  // Built in owning form first, so a rule that fails to compile leaks nothing.
  std::vector<std::unique_ptr<Compiled>> owned;
  for (const Rule& rule : rules_) owned.push_back(Compiled::from(rule));
  for (auto& c : owned) compiled_.push_back(c.release());
}

Extractor::~Extractor() {
  for (Compiled* c : compiled_) delete c;
}

std::vector<std::string> Extractor::sources() const {
  std::vector<std::string> out(kMetricLineSources.begin(), kMetricLineSources.end());
  for (const Rule& rule : rules_)
    if (rule.source != kBothStreams && std::find(out.begin(), out.end(), rule.source) == out.end())
      out.push_back(rule.source);
  return out;
}

Extraction Extractor::extract(const std::map<std::string, std::string_view>& sources) const {
  Collector out;
  try {
    for (std::size_t i = 0; i < rules_.size(); ++i) {
      const bool both = rules_[i].source == kBothStreams;
      for (const std::string_view name : both ? std::vector<std::string_view>(kMetricLineSources.begin(), kMetricLineSources.end())
                                              : std::vector<std::string_view>{rules_[i].source}) {
        const auto text = sources.find(std::string(name));
        if (text == sources.end()) continue;
        if (compiled_[i]->regex) compiled_[i]->regex->apply(rules_[i], i, text->first, text->second, out);
        if (compiled_[i]->parser) compiled_[i]->parser->parse(text->first, text->second, out);
      }
    }
    for (const std::string& source : this->sources()) {
      if (const auto text = sources.find(source); text != sources.end())
        Compiled::read_json_lines(rules_, compiled_, source, text->second, out);
    }
  } catch (const std::exception& e) {  // only resource exhaustion can get here
    out.warn("extract", 0, fmt::format("extraction stopped: {}", e.what()));
  }
  std::vector<std::optional<Reduce>> how;
  for (const Compiled* c : compiled_) how.push_back(c->reduce);
  out.fold(rules_, how);
  return out.finish();
}

void Extractor::Compiled::read_json_lines(const std::vector<Rule>& rules, const std::vector<Compiled*>& compiled,
                                          const std::string& source, std::string_view text, Collector& out) {
  std::vector<std::size_t> json_rules;
  std::vector<std::string> needles;
  RulesByName by_name;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    if (rules[i].kind == Rule::Kind::parser) continue;
    by_name.emplace(rules[i].name, &rules[i]);
    if (compiled[i]->regex || !reads(rules[i], source)) continue;
    json_rules.push_back(i);
    needles.push_back(compiled[i]->needle);
  }
  const bool metric_lines = reads_metric_lines(source);
  if (metric_lines) needles.emplace_back(kMetricLineNeedle);
  if (needles.empty()) return;
  const auto visit = [&](std::size_t line, std::string_view line_text, const nlohmann::json& object) {
    for (const std::size_t i : json_rules) apply_json_rule(rules[i], i, compiled[i]->path, source, line, object, out);
    if (metric_lines) read_metric_line(source, line, line_text, object, by_name, out);
  };
  const auto too_long = [&](std::size_t line, std::size_t bytes) {
    out.warn(source, line, fmt::format("a JSON line of {} bytes is longer than the limit of {} bytes on a metric line; "
                                       "skipped", bytes, kMaxJsonLineBytes));
  };
  for_each_json_line(text, needles, visit, kMaxJsonLineBytes, too_long);
}

std::unique_ptr<Extractor::Compiled> Extractor::Compiled::from(const Rule& rule) {
  auto compiled = std::make_unique<Compiled>();
  switch (rule.kind) {
    case Rule::Kind::regex:
      compiled->regex.emplace(rule);
      break;
    case Rule::Kind::json:
      if (rule.pattern.empty()) fail_at(rule.where, fmt::format("metric \"{}\": the json key is empty", rule.name));
      compiled->path = split(rule.pattern, '.');
      compiled->needle = needle_for_key(rule.pattern);
      break;
    case Rule::Kind::parser:
      compiled->parser = find_builtin_parser(rule.pattern);
      if (!compiled->parser)
        fail_at(rule.where, fmt::format("unknown parser \"{}\" (available: {}){}", rule.pattern,
                                        join(builtin_parser_names(), ", "),
                                        did_you_mean(rule.pattern, builtin_parser_names())));
      break;
  }
  compiled->reduce = reduction_of(rule);
  return compiled;
}

}  // namespace sweep::parse
