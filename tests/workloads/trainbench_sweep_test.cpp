// trainbench as a bundled workload of a local campaign whose report evaluates the analytical model:
// real 1- and 2-rank runs, the report's predictions next to the measurements.
#include <catch2/catch.hpp>
#include <fmt/core.h>

#include "e2e/harness.h"

using e2e::scalar;

TEST_CASE("a trainbench campaign's report predicts its communication volume and epoch time") {
  e2e::Sandbox box;
  box.write("tb.yaml", std::string(R"(name: tb
matrix:
  dp: [1, 2]
workload:
  command: >-
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe --bind-to none -np {{dp}}
    )") + TRAINBENCH_BIN + R"( --model gpt2-tiny --backend gloo --dp {{dp}} --batch 4 --epochs 2 --steps-per-epoch 4 --warmup 1
report:
  model: {baseline: {dp: 1}, time: epoch_time_headline, bandwidth: 10}
  tables:
    - name: model
      columns:
        - {param: dp}
        - {metric: comm_bytes_per_step}
        - {predicted: bytes_per_step}
        - {metric: epoch_time_headline}
        - {predicted: epoch_time}
)");
  const auto r = box.sweep({"run", "tb.yaml", "--label", "tb", "-j", "1"});
  INFO("stderr:\n" << r.err << "stdout:\n" << r.out);
  REQUIRE(r.exit_code == 0);
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'steps_per_epoch' AND value = 4") == 2);
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name IN ('layers', 'width') AND value > 0") == 4);

  const auto rep = box.sweep({"report", "tb", "--no-figures"});
  INFO("report stderr:\n" << rep.err);
  REQUIRE(rep.exit_code == 0);
  const std::string csv = e2e::read_file(box.path("reports/tb/report.model.csv"));
  INFO(csv);
  // DP on 2 ranks: the ring all-reduce puts 2(n-1)/n·N·4 = 4N bytes per rank and step on the wire,
  // which is also what trainbench hands its communicator (4·N for fp32 gradients).
  const long long parameters = scalar(db, "SELECT value FROM metrics WHERE name = 'parameters' LIMIT 1");
  CHECK(scalar(db, "SELECT value FROM metrics WHERE name = 'comm_bytes_per_step' AND value > 0") == 4 * parameters);
  // dp, then comm_bytes_per_step and the prediction (mean, sd, n each).
  CHECK_THAT(csv, Catch::Contains(fmt::format("\r\n2,{0},0,1,{0},0,1,", 4 * parameters)));
  CHECK_THAT(csv, Catch::Contains("predicted epoch_time (s)"));
}
