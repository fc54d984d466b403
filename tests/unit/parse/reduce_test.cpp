// `reduce`: how a regex or json rule's matches within one run become its value (parse/reduce.h).
#include <catch2/catch.hpp>

#include "parse/extract.h"
#include "parse/reduce.h"
#include "parse_test_util.h"

using namespace sweep;
using namespace sweep::parse;
using namespace sweep::parse::test;

namespace {

constexpr std::string_view kLosses = "step 1 loss 0.9\nstep 2 loss 0.5\nfinal loss 0.27\n";

Rule loss_rule(std::string reduce) {
  Rule r = regex_rule("loss", R"(loss (?<value>[0-9.]+))");
  r.reduce = std::move(reduce);
  return r;
}

}  // namespace

TEST_CASE("reduce: each reduction folds a rule's matches into one value at index 0") {
  const struct {
    const char* reduce;
    double value;
  } cases[] = {{"last", 0.27}, {"first", 0.9}, {"min", 0.27}, {"max", 0.9}, {"sum", 0.9 + 0.5 + 0.27},
               {"mean", (0.9 + 0.5 + 0.27) / 3}};
  for (const auto& c : cases) {
    INFO(c.reduce);
    const Extraction e = run({loss_rule(c.reduce)}, kLosses);
    REQUIRE(e.observations.size() == 1);
    CHECK(e.observations[0].name == "loss");
    CHECK(e.observations[0].index == 0);
    CHECK(e.observations[0].value == Approx(c.value));
    REQUIRE(e.matches.size() == 1);
    CHECK(e.matches[0].count == 3);  // counted before the fold
    CHECK(e.matches[0].reduce == c.reduce);
    CHECK_FALSE(unreduced_matches(e.matches));
  }
}

TEST_CASE("reduce: each keeps every match as its own index") {
  const Extraction e = run({loss_rule("each")}, kLosses);
  CHECK(values(e) == std::vector<double>{0.9, 0.5, 0.27});
  CHECK(indexes(e) == std::vector<std::size_t>{0, 1, 2});
  REQUIRE(e.matches.size() == 1);
  CHECK(e.matches[0].count == 3);
  CHECK_FALSE(unreduced_matches(e.matches));
}

TEST_CASE("reduce: a rule without reduce that matched more than once is named with its count, source and fix") {
  const Extraction e = run({loss_rule("")}, kLosses);
  CHECK(values(e) == std::vector<double>{0.9, 0.5, 0.27});  // kept per index, nothing averaged
  const auto why = unreduced_matches(e.matches);
  REQUIRE(why);
  CHECK(*why == "metric \"loss\" matched 3 times in this run's stdout; say reduce: last (or first, mean, min, max, "
                "sum; each keeps every match as its own index) in its rule at exp.yaml:7:5");
}

TEST_CASE("reduce: one match, or none, needs no reduce") {
  CHECK_FALSE(unreduced_matches(run({loss_rule("")}, "final loss 0.25\n").matches));
  const Extraction none = run({loss_rule("")}, "no loss here\n");
  REQUIRE(none.matches.size() == 1);
  CHECK(none.matches[0].count == 0);
  CHECK_FALSE(unreduced_matches(none.matches));
}

TEST_CASE("reduce: values that are not numbers are not counted or reduced") {
  Rule rule = regex_rule("loss", R"(loss (?<value>\S+))");
  rule.reduce = "max";
  const Extraction e = run({rule}, "loss 0.4\nloss abc\nloss 0.3\n");
  CHECK(values(e) == std::vector<double>{0.4});
  REQUIRE(e.matches.size() == 1);
  CHECK(e.matches[0].count == 2);
  CHECK(e.warnings.size() == 1);
}

TEST_CASE("reduce: json rules reduce, metric lines and parsers are not rules and are not counted") {
  Rule json = json_rule("loss", "loss");
  json.reduce = "last";
  const Extraction e = run({json, regex_rule("tput", R"(tput=(?<value>\d+))")},
                           "{\"loss\": 0.8}\n{\"loss\": 0.3}\ntput=5\n"
                           "{\"v\": 1, \"metric\": \"step\", \"value\": 1}\n{\"v\": 1, \"metric\": \"step\", \"value\": 2}\n");
  std::vector<std::string> names;
  for (const Observation& o : e.observations) names.push_back(o.name);
  CHECK(names == std::vector<std::string>{"tput", "loss", "step", "step"});
  CHECK(values(e) == std::vector<double>{5, 0.3, 1, 2});
  CHECK(indexes(e) == std::vector<std::size_t>{0, 0, 0, 1});
  REQUIRE(e.matches.size() == 2);
  CHECK(e.matches[0].name == "loss");
  CHECK(e.matches[0].count == 2);
  CHECK(e.matches[1].name == "tput");
  CHECK(e.matches[1].count == 1);
  CHECK_FALSE(unreduced_matches(e.matches));
}

TEST_CASE("reduce: the first rule without reduce is named when several matched too often") {
  const Extraction e = run({regex_rule("a", R"(a=(\d+))"), regex_rule("b", R"(b=(\d+))")}, "b=1 b=2 a=1 a=2 a=3\n");
  const auto why = unreduced_matches(e.matches);
  REQUIRE(why);
  CHECK(why->rfind("metric \"a\" matched 3 times", 0) == 0);
}

TEST_CASE("reduce: an unknown reduction, or one on a parser, is an error at the rule") {
  try {
    const Extractor x({loss_rule("lats")});
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "exp.yaml:7:5: metric \"loss\": unknown reduction \"lats\" (available: last, first, "
                                   "mean, min, max, sum, each) (did you mean \"last\"?)");
  }
  Rule parser = parser_rule("nccl-tests");
  parser.reduce = "last";
  CHECK_THROWS_WITH(Extractor({parser}), Catch::Contains("takes no reduce"));
}

TEST_CASE("reduce: the reductions of a sample, and the table of names") {
  const std::vector<double> v{2, -1, 4};
  CHECK(reduce(Reduce::last, v) == 4);
  CHECK(reduce(Reduce::first, v) == 2);
  CHECK(reduce(Reduce::min, v) == -1);
  CHECK(reduce(Reduce::max, v) == 4);
  CHECK(reduce(Reduce::sum, v) == 5);
  CHECK(reduce(Reduce::mean, v) == Approx(5.0 / 3));
  for (const std::string& name : reduction_names()) CHECK(reduction_named(name));
  CHECK_FALSE(reduction_named("median"));
}
