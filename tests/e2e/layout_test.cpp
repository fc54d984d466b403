// trainbench's layout rules at plan time: a point that trainbench would refuse at start is refused by
// `sweep plan` and by `sweep run` on every executor, exit 3 at the workload's args, before anything is
// recorded, written or submitted.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "e2e/harness.h"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

// GPT-2 XL has 25 attention heads: 2 tensor slices cannot hold whole heads.
const std::string kXlOnTwoSlices =
    "name: xl\n"
    "matrix:\n"
    "  model: [gpt2, gpt2-xl]\n"
    "  tp: [2]\n"
    "resources: {ntasks: \"{{tp}}\"}\n"
    "workload:\n"
    "  bundled: trainbench\n"
    "  args: {model: \"{{model}}\", tp: \"{{tp}}\", steps: 3, warmup: 1}\n";

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

/// Every path under the sandbox's results directory (run directories, the database).
std::vector<std::string> results_tree(const Sandbox& box) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(box.path("results")))
    out.push_back(fs::relative(e.path(), box.dir()).string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("a layout trainbench would refuse stops sweep plan and sweep run before anything is written") {
  Sandbox box;
  box.write("ok.yaml", "name: ok\nmatrix:\n  x: [1]\nworkload:\n  command: echo x={{x}}\n");
  REQUIRE(box.sweep({"run", "ok.yaml", "--label", "ok"}).exit_code == 0);
  box.write("xl.yaml", kXlOnTwoSlices);
  const auto tree = results_tree(box);
  const auto plan = box.sweep({"plan", "xl.yaml", "--format", "json"});
  REQUIRE(plan.exit_code == 3);
  const std::string error = first_line(plan.err);
  CHECK_THAT(error, Catch::StartsWith("sweep: xl.yaml:8:9: trainbench would refuse point "));
  CHECK_THAT(error, Catch::EndsWith(" (model=gpt2-xl, tp=2): --tp 2 must divide the 25 attention heads (each tensor "
                                    "slice holds whole heads); to leave such points out, add "
                                    "{where: \"model == 'gpt2-xl' and tp == 2\"} to \"exclude\""));
  CHECK(plan.out.empty());
  for (const std::vector<std::string>& run : {std::vector<std::string>{"run", "xl.yaml"},
                                             {"run", "--dry-run", "xl.yaml"},
                                             {"run", "xl.yaml", "--executor", "slurm"},
                                             {"run", "xl.yaml", "--executor", "slurm", "--detach"}}) {
    INFO(run.back());
    const auto r = box.sweep(run);
    CHECK(r.exit_code == 3);
    CHECK(first_line(r.err) == error);
    CHECK(r.out.empty());
  }
  CHECK(results_tree(box) == tree);
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM campaigns") == 1);
  CHECK(scalar(db, "SELECT count(*) FROM runs") == 1);
}

TEST_CASE("the exclude entry that the refusal suggests lets sweep plan go on") {
  Sandbox box;
  box.write("xl.yaml", kXlOnTwoSlices + "exclude:\n  - {where: \"model == 'gpt2-xl' and tp == 2\"}\n");
  const auto plan = box.sweep({"plan", "xl.yaml"});
  CHECK(plan.exit_code == 0);
  CHECK_THAT(plan.out, Catch::Contains("gpt2") && !Catch::Contains("gpt2-xl"));
  CHECK_FALSE(fs::exists(box.path("results")));
}

TEST_CASE("every shipped experiment plans with the settings its documentation uses") {
  Sandbox box;
  // The --set values of each file's own "Run it" comment; the files whose workload runs under srun are
  // run with --executor slurm there (the local executor refuses srun: runner/launchers.h).
  const std::vector<std::pair<std::string, std::vector<std::string>>> plans{
      {"nanocluster-gpt2.yaml", {}},
      {"nanocluster-gpt2.yaml", {"scale=ci"}},
      {"nanocluster-gpt2.yaml", {"partition=gpu", "account=mylab", "intra=pcie4", "inter=1gbe"}},
      {"nanocluster-resnet18.yaml", {}},
      {"nanocluster-resnet18.yaml", {"scale=ci"}},
      {"e15-gpt2-ddp-interconnect.yaml", {}},
      {"e15-gpt2-ddp-interconnect.yaml", {"scale=ci"}},
      {"e16-allreduce-backends.yaml", {}},
      {"e16-allreduce-backends.yaml", {"scale=ci", "backend=[gloo, mpi]"}},
      {"e16-allreduce-backends.yaml", {"backend=nccl", "transport=[auto, socket, no-p2p]"}},
      {"demo.yaml", {}},
      {"nightly.yaml", {}},
      {"nightly.yaml", {"launcher=srun"}},
  };
  for (const auto& [file, sets] : plans) {
    std::vector<std::string> args{"plan", repo_file("experiments/" + file)};
    for (const std::string& set : sets) args.insert(args.end(), {"--set", set});
    const bool srun = file != "demo.yaml" && (file != "nightly.yaml" || !sets.empty());
    if (srun) args.insert(args.end(), {"--executor", "slurm"});
    INFO(file << " " << sets.size() << " --set" << (srun ? " --executor slurm" : ""));
    const auto r = box.sweep(args);
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
  }
}
