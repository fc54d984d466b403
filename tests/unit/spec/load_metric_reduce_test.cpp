// spec::load_text: `reduce` in a `metrics` entry (docs/metrics-format.md#reduce).
#include "load_helpers.h"

using namespace sweep;
using namespace sweep::spec;
using spec_test::load_metrics;  // entries from line 5
using spec_test::metrics_error;

TEST_CASE("metric reduce: each name is read onto the rule, none given is empty") {
  for (const char* how : {"last", "first", "mean", "min", "max", "sum", "each"}) {
    INFO(how);
    const Experiment e =
        load_metrics(std::string("  - {name: loss, better: lower, regex: 'loss (?<value>\\S+)', reduce: ") + how + "}\n");
    REQUIRE(e.metrics.size() == 1);
    CHECK(e.metrics[0].reduce == how);
  }
  CHECK(load_metrics("  - {name: loss, better: lower, json: loss}\n").metrics[0].reduce.empty());
  CHECK(load_metrics("  - {name: loss, better: lower, json: loss, reduce: max}\n").metrics[0].reduce == "max");
}

TEST_CASE("metric reduce: a bad value is an error at its place, with the names and a guess") {
  const std::string rule = "  - {name: loss, better: lower, regex: 'loss (\\S+)', ";  // `reduce` at column 54
  const std::string names = "(available: last, first, mean, min, max, sum, each)";
  const struct {
    std::string entries;
    std::string message;
  } cases[] = {
      {"  - name: loss\n    better: lower\n    regex: 'loss (\\S+)'\n    reduce: lsat\n",
       "x.yaml:8:13: unknown reduction \"lsat\" " + names + " (did you mean \"last\"?)"},
      {rule + "reduce: median}\n", "x.yaml:5:62: unknown reduction \"median\" " + names + " (did you mean \"mean\"?)"},
      {rule + "reduce: average}\n", "x.yaml:5:62: unknown reduction \"average\" " + names},
      {rule + "reduce: [last]}\n", "x.yaml:5:62: \"metrics[0].reduce\" must be the name of a reduction, got a list"},
      {rule + "rduce: last}\n", "x.yaml:5:54: unknown key \"rduce\" (did you mean \"reduce\"?)"},
      {"  - {parser: nccl-tests, reduce: last}\n",
       "x.yaml:5:26: \"parser\" cannot be combined with \"reduce\" (a parser names its metrics itself; the entry "
       "takes only \"source\")"},
  };
  for (const auto& c : cases) CHECK(metrics_error(c.entries) == c.message);
}
