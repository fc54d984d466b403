// `sweep report` through the CLI over parameter values that only the report's view of the points
// (report/points_view.h) reads right: a float parameter at a subnormal value (1e-310), which std::stod
// refused ("internal error: stod") wherever a table sorted its rows, a figure placed its x or a derived
// column scaled by it.
#include <catch2/catch.hpp>

#include "e2e/harness.h"

using namespace e2e;

namespace {

// loss = 2 + rep at every point; lr spans a subnormal value and 0.5.
const char* kSubnormal = R"yaml(name: tiny
matrix:
  lr: [0.5, 1e-310]
repetitions: 2
workload:
  command: 'echo "loss=$(( 2 + {{repetition}} ))"'
metrics:
  - {name: loss, better: lower, regex: 'loss=(?<value>[0-9.]+)'}
report:
  tables:
    - name: by-lr
      rows: [lr]
      columns:
        - {param: lr}
        - {metric: loss}
        - {metric: loss, derived: efficiency, label: Efficiency}
      baseline: {lr: 1e-310}
  figures:
    - {name: loss, kind: lines, x: lr, y: loss}
)yaml";

}  // namespace

TEST_CASE("a float parameter at a subnormal value sorts rows, scales and draws as a number") {
  Sandbox box;
  box.write("tiny.yaml", kSubnormal);
  REQUIRE(box.sweep({"run", "tiny.yaml", "--label", "t"}).exit_code == 0);
  const auto r = box.sweep({"report", "t"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // Rows by lr as numbers: 1e-310 before 0.5 (as text, "0.5" would come first). The baseline against
  // itself is exactly 100%; 0.5 against 1e-310 scales the ratio of the means (1) by 1e-310 / 0.5: 0%.
  const std::string md = read_file(box.path("reports/t/report.md"));
  CHECK_THAT(md, Catch::Contains("| lr | loss | Efficiency |\n| --- | ---: | ---: |\n| 1e-310 | 2 ± 6 (2) | 100 (2) |\n"
                                 "| 0.5 | 2 ± 6 (2) | 0 (2) |\n"));
  // The figure of loss by lr: numeric x, in ascending order, at the values themselves. (The default
  // figure would take a logarithmic x for this span, which gnuplot cannot draw down to 1e-310; its
  // numeric axis: tests/unit/report/points_view_test.cpp.)
  const std::string dat = read_file(box.path("reports/t/figures/loss.dat"));
  CHECK_THAT(dat, Catch::Contains("1e-310\t2.5\t") && Catch::Contains("0.5\t2.5\t"));
  CHECK(dat.find("1e-310\t") < dat.find("0.5\t"));
}
