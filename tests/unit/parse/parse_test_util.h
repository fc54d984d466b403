#pragma once
// Shorthands for the parse tests.
#include <string>
#include <vector>

#include "parse/extract.h"

namespace sweep::parse::test {

inline Rule regex_rule(std::string name, std::string pattern, std::string source = "stdout") {
  Rule r;
  r.name = std::move(name);
  r.pattern = std::move(pattern);
  r.source = std::move(source);
  r.where = SourceLocation{"exp.yaml", 7, 5};
  return r;
}

inline Rule json_rule(std::string name, std::string key, std::string source = "stdout") {
  Rule r = regex_rule(std::move(name), std::move(key), std::move(source));
  r.kind = Rule::Kind::json;
  return r;
}

/// A `parser:` entry naming built-in parser `name`.
inline Rule parser_rule(std::string name, std::string source = "stdout") {
  Rule r = regex_rule("", std::move(name), std::move(source));
  r.kind = Rule::Kind::parser;
  return r;
}

/// Extracts from stdout only.
inline Extraction run(std::vector<Rule> rules, std::string_view out) {
  const Extractor extractor(std::move(rules));
  return extractor.extract({{"stdout", out}});
}

/// The values of every observation, in order.
inline std::vector<double> values(const Extraction& e) {
  std::vector<double> out;
  for (const auto& o : e.observations) out.push_back(o.value);
  return out;
}

inline std::vector<std::size_t> indexes(const Extraction& e) {
  std::vector<std::size_t> out;
  for (const auto& o : e.observations) out.push_back(o.index);
  return out;
}

}  // namespace sweep::parse::test
