// `sweep plan` as the one validation stage (docs/experiment-format.md#validation): it reads the site
// file as `sweep run` does, so a layout the site's resources make impossible is refused by both; a
// templated time limit is every local run's limit; a report section refused from the copy stored with a
// campaign says so, and `sweep report --spec` takes a whole experiment file. (Each malformed experiment
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

TEST_CASE("a report section refused from the stored copy says so, and --spec takes the fixed experiment") {
  Sandbox box;
  const std::string text =
      "name: rep\nmatrix:\n  n: [1, 2]\nworkload:\n  command: echo n={{n}}\n"
      "metrics:\n  - {name: value, better: higher, regex: 'n=(?<value>[0-9]+)'}\n"
      "report:\n  tables:\n    - {name: t, rows: [n], metrics: [vale]}\n";
  box.write("rep.yaml", text);
  REQUIRE(box.sweep({"run", "rep.yaml", "--label", "rep"}).exit_code == 0);
  // Fixed on disk after the campaign: the stored copy is still what `sweep report rep` reads.
  box.write("rep.yaml", text.substr(0, text.find("[vale]")) + "[value]}\n");
  const auto stored = box.sweep({"report", "rep", "--no-figures"});
  CHECK(stored.exit_code == 3);
  CHECK_THAT(stored.err, Catch::StartsWith("sweep: rep.yaml:10:7: unknown metric \"vale\"") &&
                             Catch::Contains("(in the experiment stored with campaign rep, from rep.yaml, sha256 ") &&
                             Catch::Contains("--spec FILE"));
  const auto fixed = box.sweep({"report", "rep", "--no-figures", "--spec", "rep.yaml"});
  CHECK(fixed.exit_code == 0);
  CHECK(fs::exists(box.path("reports/rep/report.t.csv")));
  // An experiment without a report section says what --spec takes.
  box.write("bare.yaml", "name: bare\nmatrix:\n  n: [1]\nworkload:\n  command: echo\n");
  const auto bare = box.sweep({"report", "rep", "--spec", "bare.yaml"});
  CHECK(bare.exit_code == 3);
  CHECK_THAT(bare.err, Catch::Contains("bare.yaml:1:1: the experiment has no \"report\" section"));
}

TEST_CASE("the local executor refuses srun and torchrun-env at the launcher's line, before anything is written") {
  // On a login node with SLURM_CONF set, srun under the local executor made each run a 1-task Slurm job of
  // its own: this 2x1 point ran with WORLD_SIZE=1. Refused by plan, run and the local dry run alike.
  Sandbox box;
  const std::string text =
      "name: ddp\n"
      "matrix:\n"
      "  nodes: [1, 2]\n"
      "resources: {nodes: '{{nodes}}', ntasks-per-node: 1}\n"
      "workload:\n"
      "  command: python3 train.py --nodes {{nodes}}\n"
      "  launcher: srun\n";
  box.write("ddp.yaml", text);
  for (const std::vector<std::string>& args : {std::vector<std::string>{"plan", "ddp.yaml"},
                                              {"run", "ddp.yaml"},
                                              {"run", "--dry-run", "ddp.yaml"}}) {
    INFO(args[0] << " " << args[1]);
    const auto r = box.sweep(args);
    CHECK(r.exit_code == 3);
    CHECK_THAT(first_line(r.err), Catch::StartsWith("sweep: ddp.yaml:7:13: launcher srun starts the workload's tasks "
                                                    "inside a Slurm allocation, which the local executor does not "
                                                    "make") &&
                                      Catch::Contains("use --executor slurm, or launcher mpirun (or local)") &&
                                      Catch::EndsWith("(at the point nodes=1); the executor is the default, as "
                                                      "neither the experiment nor a site file names one (`sweep "
                                                      "site` shows where sweep looks)"));
  }
  CHECK_FALSE(fs::exists(box.path("results")));
  // The same experiment on Slurm is fine; so is mpirun on the local executor.
  CHECK(box.sweep({"plan", "ddp.yaml", "--executor", "slurm"}).exit_code == 0);
  std::string mpirun = text;
  mpirun.replace(mpirun.find("launcher: srun"), 14, "launcher: mpirun");
  CHECK(box.sweep({"plan", box.write("mpirun.yaml", mpirun)}).exit_code == 0);
  // torchrun-env on Slurm, run here with --executor local: refused at its line too.
  std::string torchrun = text;
  torchrun.replace(torchrun.find("launcher: srun"), 14, "launcher: torchrun-env");
  box.write("torchrun.yaml", "executor: slurm\n" + torchrun);
  const auto r = box.sweep({"plan", "torchrun.yaml", "--executor", "local"});
  CHECK(r.exit_code == 3);
  CHECK_THAT(first_line(r.err), Catch::StartsWith("sweep: torchrun.yaml:8:13: launcher torchrun-env starts"));
  CHECK(r.err.find("the executor is the default") == std::string::npos);  // --executor chose it
  CHECK(box.sweep({"plan", "torchrun.yaml"}).exit_code == 0);
}
