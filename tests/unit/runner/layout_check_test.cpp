#include <catch2/catch.hpp>

#include "matrix/expand.h"
#include "runner/layout_check.h"
#include "runner/workload_choice.h"
#include "spec/load.h"
#include "util/error.h"

using namespace sweep;

namespace {

spec::Experiment experiment(const std::string& body) { return spec::load_text("name: t\n" + body, "t.yaml"); }

/// The Error that sweep plan's check throws for `body`, or a failed test when it throws none.
Error refusal(const std::string& body) {
  const spec::Experiment e = experiment(body);
  try {
    runner::check_layouts(e, matrix::Expansion(e));
  } catch (const Error& error) {
    return error;
  }
  FAIL("no point was refused");
  throw;
}

const std::string kModels =
    "matrix:\n  model: [gpt2, gpt2-xl]\n  tp: [1, 2]\n"
    "resources: {ntasks: \"{{tp}}\"}\n"
    "workload:\n  bundled: trainbench\n  args: {model: \"{{model}}\", tp: \"{{tp}}\", batch: 4}\n";

}  // namespace

TEST_CASE("a point trainbench would refuse is refused at the args, with an exclude entry that leaves it out") {
  const Error e = refusal(kModels);
  CHECK(e.kind() == ErrorKind::invalid_experiment);
  CHECK(e.where().str() == "t.yaml:8:9");
  const auto xl = experiment(kModels);
  const matrix::Expansion expansion(xl);
  const auto points = expansion.points();
  REQUIRE(points.size() == 4);
  CHECK(e.message() == "trainbench would refuse point " + points[3].id + " (model=gpt2-xl, tp=2): --tp 2 must divide "
                       "the 25 attention heads (each tensor slice holds whole heads); to leave such points out, add "
                       "{where: \"model == 'gpt2-xl' and tp == 2\"} to \"exclude\"");
  // The suggestion, added, is enough.
  const auto fixed = experiment(kModels + "exclude:\n  - {where: \"model == 'gpt2-xl' and tp == 2\"}\n");
  CHECK_NOTHROW(runner::check_layouts(fixed, matrix::Expansion(fixed)));
}

TEST_CASE("the exclude entry pins the derived values that feed the options at fault") {
  const Error e = refusal(
      "matrix:\n  size: [small, xl]\n  ranks: [2]\n"
      "derived:\n  heads: \"size == 'xl' ? 25 : 12\"\n  width: \"size == 'xl' ? 1600 : 768\"\n"
      "workload:\n  bundled: trainbench\n  args: {heads: \"{{heads}}\", width: \"{{width}}\", tp: \"{{ranks}}\"}\n");
  CHECK_THAT(e.message(), Catch::Contains("(size=xl, ranks=2): --tp 2 must divide the 25 attention heads"));
  CHECK_THAT(e.message(), Catch::EndsWith("add {where: \"ranks == 2 and heads == 25\"} to \"exclude\""));
}

TEST_CASE("a refusal that no parameter feeds says every point fails") {
  const Error e = refusal("matrix: {seed: [1, 2]}\nworkload:\n  bundled: trainbench\n  args: {tp: 3, seed: \"{{seed}}\"}\n");
  CHECK(e.where().str() == "t.yaml:5:9");
  CHECK_THAT(e.message(), Catch::Contains("(seed=1): --tp 3 must divide the 4 attention heads"));
  CHECK_THAT(e.message(), Catch::EndsWith("; no parameter feeds tp, model, so every point fails the same way: "
                                          "change \"args\""));
}

TEST_CASE("every reason of a point is given, and the ranks are checked first") {
  const Error both = refusal("matrix: {pp: [4]}\nworkload:\n  bundled: trainbench\n"
                             "  args: {pp: \"{{pp}}\", microbatches: \"{{pp}}\", batch: 6}\n");
  CHECK_THAT(both.message(), Catch::Contains(": --pp 4 stages exceed the 2 layers (every stage needs at least one); "
                                             "--batch 6 does not divide into --microbatches 4; to leave"));
  CHECK_THAT(both.message(), Catch::EndsWith("{where: \"pp == 4\"} to \"exclude\""));
  const Error ranks = refusal("matrix: {pp: [4]}\nresources: {ntasks: 2}\nworkload:\n  bundled: trainbench\n"
                              "  args: {pp: \"{{pp}}\"}\n");
  CHECK_THAT(ranks.message(), Catch::StartsWith("trainbench's dp 1 x tp 1 x pp 4 = 4 ranks, but the resources give "
                                                "ntasks 2 = 2 at point"));
}

TEST_CASE("each point is checked against the workload entry it runs") {
  const std::string body =
      "matrix: {model: [gpt2, gpt2-xl]}\nworkload:\n"
      "  - when: \"model == 'gpt2-xl'\"\n    command: echo {{model}}\n"
      "  - bundled: trainbench\n    args: {model: \"{{model}}\", tp: 4}\n";
  const auto ok = experiment(body);
  CHECK_NOTHROW(runner::check_layouts(ok, matrix::Expansion(ok)));
}

TEST_CASE("an arg known only at run time leaves its rules to trainbench, not the others") {
  const auto unknown = experiment("matrix: {n: [1]}\nworkload:\n  bundled: trainbench\n"
                                  "  args: {tp: \"{{repetition}}\", model: gpt2-xl}\n");
  CHECK_NOTHROW(runner::check_layouts(unknown, matrix::Expansion(unknown)));
  const auto per_run = experiment("matrix: {n: [1]}\nworkload:\n  bundled: trainbench\n"
                                  "  args: {tp: 2, rendezvous: \"{{run_dir}}\", model: gpt2-xl}\n");
  CHECK_THROWS_WITH(runner::check_layouts(per_run, matrix::Expansion(per_run)),
                    Catch::Contains("--tp 2 must divide the 25 attention heads"));
}

TEST_CASE("without a bundled program that has a layout, sweep plan's check visits no point") {
  // Visiting a point would evaluate this "when", which is not true or false.
  const auto e = experiment("matrix: {n: [1]}\nworkload:\n  - when: n + 1\n    command: a\n  - command: b\n");
  CHECK_NOTHROW(runner::check_layouts(e, matrix::Expansion(e)));
  CHECK_THROWS_WITH(runner::choose_workload(e, matrix::Expansion(e).schema(), matrix::Expansion(e).points()[0].values),
                    Catch::Contains("t.yaml:4:11: \"when\" must be true or false, got int 2 at point"));
}

TEST_CASE("the suggested exclude entry quotes string values so that it parses and matches") {
  const std::string body = "matrix:\n  model: [gpt2, \"it's \\\\ \\\"odd\\\"\"]\nworkload:\n  bundled: trainbench\n"
                           "  args: {model: \"{{model}}\"}\n";
  const Error e = refusal(body);
  CHECK_THAT(e.message(), Catch::Contains("--model: \"it's \\ \"odd\"\" is not one of gpt2-tiny"));
  const std::string hint = "add {where: ";
  const auto at = e.message().find(hint);
  REQUIRE(at != std::string::npos);
  const std::string entry = e.message().substr(at + hint.size(), e.message().rfind("} to \"exclude\"") - at - hint.size());
  const auto fixed = experiment(body + "exclude:\n  - {where: " + entry + "}\n");
  CHECK(matrix::Expansion(fixed).points().size() == 1);
  CHECK_NOTHROW(runner::check_layouts(fixed, matrix::Expansion(fixed)));
}
