#pragma once
// The table of built-in parsers that a `parser` rule names (docs/metrics-format.md, "Built-in
// parsers"). Adding a parser is one entry here plus its file. Internal to parse/; spec/metric_parsers.h
// lists the same names for validation (tests/unit/runner/metric_parsers_test.cpp checks they agree).
#include <span>
#include <string_view>

#include "parse/collector.h"

namespace sweep::parse {

/// Reads the whole text of one source into `out`. Never throws except for resource exhaustion.
using ParserFn = void (*)(std::string_view source, std::string_view text, Collector& out);

struct BuiltinParser {
  std::string_view name;
  ParserFn parse;
};

/// Every built-in parser, in the order messages list them.
std::span<const BuiltinParser> builtin_parsers();

/// The parser called `name`, or nullptr. (Their names for messages: builtin_parser_names(), extract.h.)
const BuiltinParser* find_builtin_parser(std::string_view name);

}  // namespace sweep::parse
