// Shared baselines through the CLI (docs/reports.md#baselines): a campaign whose 1x1 point runs once,
// for DP, TP and PP alike, and a report whose scaling factors compare every point with it.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "e2e/harness.h"

using namespace e2e;

namespace {

// samples_per_s = 100 + (n - 1)·eff with n = nodes x gpus_per_node and eff 90, 80, 70 for DP, TP and PP:
// the 1x1 point gives 100 whatever its parallelism, so it runs once (the exclude), as dp.
const char* kShared = R"yaml(name: shared
matrix:
  parallelism: [dp, tp, pp]
  topology:
    - {nodes: 1, gpus_per_node: 1}
    - {nodes: 1, gpus_per_node: 2}
    - {nodes: 2, gpus_per_node: 1}
    - {nodes: 2, gpus_per_node: 2}
derived:
  eff: "parallelism == 'dp' ? 90 : parallelism == 'tp' ? 80 : 70"
  setup: "str(nodes) + 'x' + str(gpus_per_node)"
exclude:
  - where: "nodes * gpus_per_node == 1 and parallelism != 'dp'"
repetitions: 2
workload:
  command: 'echo "samples_per_s=$(( 100 + ({{nodes}} * {{gpus_per_node}} - 1) * {{eff}} ))"'
metrics:
  - {name: samples_per_s, unit: samples/s, better: higher, regex: 'samples_per_s=(?<value>[0-9]+)'}
report:
  tables:
    - name: scaling
      spread: none
      baseline: {match: {nodes: 1, gpus_per_node: 1}, ignore: [parallelism]}
      columns:
        - {param: parallelism}
        - {param: setup}
        - {metric: samples_per_s}
        - {metric: samples_per_s, derived: scaling, label: S_n}
)yaml";

}  // namespace

TEST_CASE("one 1x1 run is the baseline of the DP, TP and PP points: S_n = T_n/(n·T_1)") {
  Sandbox box;
  box.write("shared.yaml", kShared);
  const auto plan = box.sweep({"plan", "shared.yaml"});
  REQUIRE(plan.exit_code == 0);
  CHECK_THAT(plan.out, Catch::Contains("10 points x 2 repetitions = 20 runs"));  // 3 x 4 less two repeated 1x1 points
  REQUIRE(box.sweep({"run", "shared.yaml", "--label", "s"}).exit_code == 0);
  const auto r = box.sweep({"report", "s", "--no-figures"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // S_n = (100 + (n-1)·eff)/(n·100): DP 190/200, 370/400; TP 180/200, 340/400; PP 170/200, 310/400.
  const std::string md = read_file(box.path("reports/s/report.md"));
  CHECK_THAT(md, Catch::Contains("| parallelism | setup | samples_per_s (samples/s) | S_n |\n"
                                 "| --- | --- | ---: | ---: |\n"
                                 "| dp | 1x1 | 100 (2) | 1 (2) |\n"
                                 "| dp | 1x2 | 190 (2) | 0.95 (2) |\n"
                                 "| dp | 2x1 | 190 (2) | 0.95 (2) |\n"
                                 "| dp | 2x2 | 370 (2) | 0.925 (2) |\n"
                                 "| tp | 1x2 | 180 (2) | 0.9 (2) |\n"
                                 "| tp | 2x1 | 180 (2) | 0.9 (2) |\n"
                                 "| tp | 2x2 | 340 (2) | 0.85 (2) |\n"
                                 "| pp | 1x2 | 170 (2) | 0.85 (2) |\n"
                                 "| pp | 2x1 | 170 (2) | 0.85 (2) |\n"
                                 "| pp | 2x2 | 310 (2) | 0.775 (2) |\n"));
  const auto j = nlohmann::json::parse(read_file(box.path("reports/s/report.json")));
  const auto& rows = j["tables"][0]["rows"];
  REQUIRE(rows.size() == 10);
  CHECK(rows[9]["cells"][1]["mean"].get<double>() == Approx(0.775));
}

TEST_CASE("a baseline two points could serve is an error at the table's baseline") {
  Sandbox box;
  std::string text = kShared;
  text.erase(text.find("exclude:"), text.find("repetitions:") - text.find("exclude:"));  // 1x1 runs per parallelism
  box.write("shared.yaml", text);
  REQUIRE(box.sweep({"run", "shared.yaml", "--label", "s"}).exit_code == 0);
  const auto r = box.sweep({"report", "s", "--no-figures"});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("shared.yaml:21:17: baseline {nodes: 1, gpus_per_node: 1} ignoring [parallelism] is "
                                    "ambiguous: points \"parallelism=dp nodes=1 gpus_per_node=1\" and \"parallelism=tp "
                                    "nodes=1 gpus_per_node=1\" could both be the baseline of \"parallelism=dp nodes=1 "
                                    "gpus_per_node=2\""));
  CHECK_FALSE(std::filesystem::exists(box.path("reports/s/report.md")));
}
