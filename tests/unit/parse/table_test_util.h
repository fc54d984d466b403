#pragma once
// Shorthands for the built-in parser tests: the real outputs under data/ and views of an extraction by
// metric name.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "parse/extract.h"
#include "parse_test_util.h"

namespace sweep::parse::test {

/// The text of tests/unit/parse/data/<name>.
inline std::string data_file(const std::string& name) {
  std::ifstream in(SWEEP_SOURCE_DIR + "/tests/unit/parse/data/" + name, std::ios::binary);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Runs built-in parser `parser` over `text` as stdout.
inline Extraction parse_with(const std::string& parser, std::string_view text) {
  return run({parser_rule(parser)}, text);
}

/// The observations of metric `name`, in extraction order.
inline std::vector<Observation> of(const Extraction& e, const std::string& name) {
  std::vector<Observation> out;
  for (const Observation& o : e.observations)
    if (o.name == name) out.push_back(o);
  return out;
}

/// The values of metric `name`, in extraction order.
inline std::vector<double> values_of(const Extraction& e, const std::string& name) {
  std::vector<double> out;
  for (const Observation& o : of(e, name)) out.push_back(o.value);
  return out;
}

/// The value of metric `name` at `index`; fails the test when there is not exactly one.
inline double value_at(const Extraction& e, const std::string& name, std::size_t index) {
  std::vector<double> found;
  for (const Observation& o : of(e, name))
    if (o.index == index) found.push_back(o.value);
  REQUIRE(found.size() == 1);
  return found[0];
}

/// The lines of `text`, each without its '\n'.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

/// `lines` joined, each followed by '\n'.
inline std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

}  // namespace sweep::parse::test
