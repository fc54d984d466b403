#include <catch2/catch.hpp>

#include <random>
#include <thread>

#include "parse/extract.h"
#include "parse_test_util.h"

using namespace sweep;
using namespace sweep::parse;
using namespace sweep::parse::test;

namespace {

std::vector<Rule> all_kinds() {
  return {regex_rule("a", R"(a=(?<value>\S*))"), regex_rule("b", R"(^(?<value>[^\n]*)$)"), json_rule("c", "c"),
          json_rule("d", "x.y"), regex_rule("e", R"((?<value>.*?))", "stderr")};
}

}  // namespace

TEST_CASE("random bytes, NULs included, never crash or throw") {
  std::mt19937 rng(12345);
  const Extractor extractor(all_kinds());
  for (int round = 0; round < 50; ++round) {
    std::string bytes(static_cast<std::size_t>(rng() % 20000), '\0');
    for (char& c : bytes) c = static_cast<char>(rng() % 256);
    // sprinkle in fragments that trigger every code path
    bytes.insert(rng() % (bytes.size() + 1),
                 "\n{\"v\":1,\"metric\":\"m\",\"value\":\"\xff\"}\n{\"c\":\"\0\"}\na=\xff\n");
    Extraction e;
    REQUIRE_NOTHROW(e = extractor.extract({{"stdout", bytes}, {"stderr", bytes}}));
    CHECK(e.warnings.size() <= 101);
  }
}

TEST_CASE("NUL bytes inside values, huge and truncated lines") {
  const std::string with_nul("a=1\0 2\na=3", 10);
  const Extraction e = run({regex_rule("a", R"(a=(?<value>[^\n]*))")}, with_nul);
  CHECK(values(e) == std::vector<double>{3});
  CHECK(e.warnings == std::vector<std::string>{"stdout:1: metric \"a\": value \"1\\x00 2\" is not a number"});

  const std::string huge = "{\"v\":1,\"metric\":\"x\",\"value\":" + std::string(3'000'000, '1');
  CHECK_NOTHROW(run(all_kinds(), huge));
  CHECK_NOTHROW(run(all_kinds(), "{\"v\":1,\"metric\":\"x\",\"val"));
  CHECK_NOTHROW(run(all_kinds(), std::string(1'000'000, '[')));
  CHECK_NOTHROW(run(all_kinds(), "{" + std::string(100'000, '[')));
}

TEST_CASE("concurrent extract() calls on one extractor agree") {
  const Extractor extractor({regex_rule("a", R"(a=(?<value>\d+))"), json_rule("c", "c")});
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "a=" + std::to_string(i) + "\n{\"c\": " + std::to_string(i) + "}\n";
  std::vector<std::size_t> counts(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < counts.size(); ++t)
    threads.emplace_back([&, t] { counts[t] = extractor.extract({{"stdout", text}}).observations.size(); });
  for (auto& thread : threads) thread.join();
  CHECK(counts == std::vector<std::size_t>(4, 4000));
}
