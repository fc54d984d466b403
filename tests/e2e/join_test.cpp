// `sweep report` of a campaign whose report joins another campaign (docs/reports.md#joins), through the
// CLI on a real database: the latest campaign of the joined experiment by default, another with
// --join LABEL, and a report without the join's table, with a note, when there is none.
#include <catch2/catch.hpp>

#include "e2e/harness.h"

using namespace e2e;

namespace {

/// A report CSV without its CRLF line ends' CRs.
std::string csv(const Sandbox& box, const std::string& rel) {
  std::string text = read_file(box.path(rel));
  std::erase(text, '\r');
  return text;
}

// "Training": an epoch of 100 s on one node, 60 s + 10 s per repetition on two.
const char* kTrain = R"yaml(name: train
matrix:
  nodes: [1, 2]
repetitions: 2
workload:
  command: 'echo "epoch=$(( {{nodes}} == 1 ? 100 : 60 + 10 * {{repetition}} ))"'
metrics:
  - {name: epoch, unit: s, better: lower, regex: 'epoch=(?<value>[0-9.]+)'}
)yaml";

// "All-reduce": on two nodes only, its time in microseconds is the --set value `us`.
const char* kBench = R"yaml(name: bench
matrix:
  nodes: [2]
  us: [5000]
workload:
  command: 'echo "time_us={{us}}"'
metrics:
  - {name: time_us, unit: us, better: lower, regex: 'time_us=(?<value>[0-9.]+)'}
report:
  join:
    experiment: train
    on: [nodes]
    metrics:
      - {metric: time_us, as: allreduce, scale: 1.0e-6, unit: s}
    tables:
      - name: joined
        columns: [{param: nodes}, {metric: allreduce}, {metric: epoch}]
)yaml";

}  // namespace

TEST_CASE("a report joins the latest campaign of another experiment, or the one --join names") {
  Sandbox box;
  box.write("train.yaml", kTrain);
  box.write("bench.yaml", kBench);
  REQUIRE(box.sweep({"run", "bench.yaml", "--label", "b1"}).exit_code == 0);
  const auto alone = box.sweep({"report", "b1", "--no-figures"});
  INFO(alone.err);
  CHECK(alone.exit_code == 0);
  CHECK_THAT(alone.err, Catch::Contains("note: no campaign of experiment \"train\" to join (report.join at"));
  CHECK_FALSE(std::filesystem::exists(box.path("reports/b1/report.joined.csv")));

  REQUIRE(box.sweep({"run", "train.yaml", "--label", "t1"}).exit_code == 0);
  REQUIRE(box.sweep({"run", "train.yaml", "--label", "t2", "--set", "repetitions=1"}).exit_code == 0);
  REQUIRE(box.sweep({"report", "b1", "--no-figures"}).exit_code == 0);
  // The latest campaign of train (t2, one repetition); the all-reduce only on two nodes, in seconds.
  CHECK(csv(box, "reports/b1/report.joined.csv") ==
        "nodes,allreduce (s) mean,allreduce (s) sd,allreduce (s) n,epoch (s) mean,epoch (s) sd,epoch (s) n,"
        "allreduce (s) mean shown,allreduce (s) uncertainty shown,epoch (s) mean shown,epoch (s) uncertainty shown\n"
        "1,,,0,100,0,1,,,100,\n"
        "2,0.005,0,1,60,0,1,0.005,,60,\n");
  REQUIRE(box.sweep({"report", "b1", "--no-figures", "--join", "t1"}).exit_code == 0);
  CHECK_THAT(csv(box, "reports/b1/report.joined.csv"), Catch::Contains("\n2,0.005,0,1,65,"));
  const auto missing = box.sweep({"report", "b1", "--join", "t9"});
  CHECK(missing.exit_code == 4);
  CHECK_THAT(missing.err, Catch::Contains("t9"));
}
