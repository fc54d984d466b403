// The parser table behind `parser:` rules.
#include "table_test_util.h"

using namespace sweep;
using namespace sweep::parse;
using namespace sweep::parse::test;

namespace {

std::string construction_error(const Rule& rule) {
  try {
    const Extractor extractor({rule});
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::invalid_experiment);
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("builtin parsers: names, and an unknown name at the rule's place") {
  CHECK(builtin_parser_names() == std::vector<std::string>{"nccl-tests", "osu"});
  CHECK(construction_error(parser_rule("ncl-tests")) ==
        "exp.yaml:7:5: unknown parser \"ncl-tests\" (available: nccl-tests, osu) (did you mean \"nccl-tests\"?)");
  CHECK(construction_error(parser_rule("imb")) == "exp.yaml:7:5: unknown parser \"imb\" (available: nccl-tests, osu)");
}

TEST_CASE("builtin parsers: next to a regex rule and metric lines on the same source") {
  const std::string text = data_file("osu/osu_bw.txt") + "{\"v\": 1, \"metric\": \"nodes\", \"value\": 2}\n";
  const Extraction e = run({regex_rule("test", R"(# OSU MPI (?<value>\S+) )"), parser_rule("osu")}, text);
  CHECK(e.warnings.size() == 1);  // the regex's "Bandwidth" is not a number
  CHECK(values_of(e, "bandwidth_MBps") == std::vector<double>{12254.16});
  CHECK(values_of(e, "nodes") == std::vector<double>{2});
}
