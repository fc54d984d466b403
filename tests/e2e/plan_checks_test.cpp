// `sweep plan` as the one validation stage (docs/experiment-format.md#validation): it reads the site
// file as `sweep run` does, so a layout the site's resources make impossible is refused by both; a
// templated time limit is every local run's limit. (Each malformed experiment
// of tests/data/bad-experiments/ is refused by plan, run and both dry runs: bad_experiments_test.cpp.)
#include <catch2/catch.hpp>

#include <filesystem>

#include "e2e/harness.h"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// trainbench with dp 2 and no rank resources of its own: the site's ntasks decides.
const std::string kDp2 =
    "name: dp2\n"
    "matrix:\n"
    "  dp: [2]\n"
    "workload:\n"
    "  bundled: trainbench\n"
    "  args: {dp: \"{{dp}}\", steps: 2, warmup: 1}\n";

}  // namespace

TEST_CASE("sweep plan applies the site file as sweep run does: a layout its ntasks makes impossible is refused") {
  Sandbox box;
  box.write("dp2.yaml", kDp2);
  const std::string site = box.write("site.yaml", "format: 1\nresources: {ntasks: 4}\n");
  CHECK(box.sweep({"plan", "dp2.yaml", "--site", "none"}).exit_code == 0);
  const auto plan = box.sweep({"plan", "dp2.yaml", "--site", site});
  REQUIRE(plan.exit_code == 3);
  const std::string error = first_line(plan.err);
  CHECK_THAT(error, Catch::StartsWith("sweep: dp2.yaml:6:9: trainbench's dp 2 x tp 1 x pp 1 = 2 ranks, but the "
                                      "resources give ntasks 4 = 4 at point "));
  CHECK(plan.out.empty());
  for (const std::vector<std::string>& run : {std::vector<std::string>{"run", "dp2.yaml", "--site", site},
                                             {"run", "--dry-run", "--executor", "slurm", "dp2.yaml", "--site", site}}) {
    INFO(run[1]);
    const auto r = box.sweep(run);
    CHECK(r.exit_code == 3);
    CHECK(first_line(r.err) == error);
  }
  CHECK_FALSE(fs::exists(box.path("results")));
}

TEST_CASE("sweep plan checks the site's templated resources at every point") {
  Sandbox box;
  box.write("t.yaml", "name: t\nmatrix:\n  n: [1, 2]\nworkload:\n  command: echo {{n}}\n");
  const std::string site = box.write("site.yaml", "format: 1\nresources: {mem: \"{{n}}GB\"}\n");
  const auto plan = box.sweep({"plan", "t.yaml", "--site", site});
  CHECK(plan.exit_code == 3);
  CHECK_THAT(first_line(plan.err), Catch::StartsWith("sweep: " + site + ":2:19: \"resources.mem\" must be a memory size") &&
                                       Catch::EndsWith("got \"1GB\" (rendered from \"{{n}}GB\" at the point n=1)"));
}

TEST_CASE("a templated time limit is each local run's limit") {
  Sandbox box;
  box.write("slow.yaml",
            "name: slow\nmatrix:\n  limit: ['0:01']\nworkload:\n  command: sleep 30 # {{limit}}\n"
            "resources: {time: \"{{limit}}\"}\n");
  const auto r = box.sweep({"run", "slow.yaml", "--label", "slow"});
  CHECK(r.exit_code != 0);
  auto db = box.db();
  SQLite::Statement q(db, "SELECT failure_class FROM runs");
  REQUIRE(q.executeStep());
  CHECK(q.getColumn(0).getString() == "timeout");
}
