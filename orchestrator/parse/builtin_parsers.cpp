#include "parse/builtin_parsers.h"

#include <array>
#include <string>
#include <vector>

#include "parse/nccl_tests.h"
#include "parse/osu.h"

namespace sweep::parse {

namespace {

constexpr std::array<BuiltinParser, 2> kParsers{{
    {"nccl-tests", parse_nccl_tests},
    {"osu", parse_osu},
}};

}  // namespace

std::span<const BuiltinParser> builtin_parsers() { return kParsers; }

const BuiltinParser* find_builtin_parser(std::string_view name) {
  for (const BuiltinParser& p : kParsers)
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<std::string> builtin_parser_names() {
  std::vector<std::string> names;
  for (const BuiltinParser& p : kParsers) names.emplace_back(p.name);
  return names;
}

}  // namespace sweep::parse
