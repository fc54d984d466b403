#include <catch2/catch.hpp>

#include "e2e/harness.h"

using namespace e2e;

namespace {
const char* kFailing = R"(name: failing
matrix:
  mode: [ok, exit3, slow, silent]
workload:
  command: |
    case {{mode}} in
      ok) echo "value=1" ;;
      exit3) echo "value=1"; exit 3 ;;
      slow) sleep 30 ;;
      silent) echo "nothing to see" ;;
    esac
resources:
  time: "00:02"
metrics:
  - name: value
    better: higher
    regex: 'value=(?<value>\d+)'
)";
}

TEST_CASE("runs fail by exit code, timeout and missing metric, each with its reason") {
  Sandbox box;
  const auto spec = box.write("failing.yaml", kFailing);
  const auto run = box.sweep({"run", spec, "--label", "f", "--jobs", "4"});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.out, Catch::Contains("4 runs planned, 1 succeeded, 3 failed"));

  auto db = box.db();
  const auto cls = [&](const char* mode) {
    SQLite::Statement q(db, "SELECT r.state || ' ' || r.failure_class || ': ' || r.failure_reason FROM runs r "
                            "JOIN point_params p ON p.point_id = r.point_id WHERE p.name = 'mode' AND p.value = ?");
    q.bind(1, mode);
    REQUIRE(q.executeStep());
    return q.getColumn(0).getString();
  };
  CHECK(cls("ok") == "succeeded : ");
  CHECK(cls("exit3") == "failed exit_code: exited with code 3 (expected 0)");
  CHECK_THAT(cls("slow"), Catch::StartsWith("failed timeout: exceeded its time limit"));
  CHECK(cls("silent") == "failed missing_metric: required metric not found: value");
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'value'") == 2);  // kept, even from the failed run

  const auto report = box.sweep({"report", "f", "--stdout"});
  CHECK_THAT(report.out, Catch::Contains("## Failed runs") && Catch::Contains("exited with code 3"));
}
