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
      slow) sleep 600 ;;
      silent) echo "nothing to see" ;;
    esac
resources:
  time: "00:20"
metrics:
  - name: value
    better: higher
    regex: 'value=(?<value>\d+)'
)";
}

// The time limit is a bound no quick run reaches on a busy machine (CI after e98a45a: with a 2 s limit, the
// runs that echo one line were cut off, their sampler's start and stop under ASan taking longer): only
// `slow`, which sleeps past it, is ended by it.
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
  // Each reason's first line, then what the run printed last (stderr, or stdout when stderr is empty).
  CHECK(cls("exit3") == "failed exit_code: exited with code 3 (expected 0)\n--- last 1 line of stdout ---\nvalue=1");
  CHECK_THAT(cls("slow"), Catch::StartsWith("failed timeout: exceeded its time limit"));
  CHECK_THAT(cls("silent"), Catch::StartsWith("failed missing_metric: required metric not found: value\n"
                                              "  the regex rule \"value\" at ") &&
                                Catch::Contains("failing.yaml:15:5 (reads stdout) matched no line") &&
                                Catch::EndsWith("--- last 1 line of stdout ---\nnothing to see"));
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'value'") == 2);  // kept, even from the failed run

  const auto report = box.sweep({"report", "f", "--stdout"});
  CHECK_THAT(report.out, Catch::Contains("## Failed runs") && Catch::Contains("exited with code 3"));
}

TEST_CASE("a 2 GiB log: the values of its first 256 MiB are kept, the rest skipped with a counted warning") {
  Sandbox box;
  // The run's stdout grows to 2 GiB + a line (sparse: the middle is NUL bytes, as binary garbage would
  // be), with one value at the start and one past the 256 MiB that ingestion reads.
  const auto spec = box.write("big.yaml", R"(name: big
matrix: {n: [1]}
workload:
  command: |
    echo "value=7"
    truncate -s 2G "$SWEEP_RUN_DIR/stdout"
    echo "value=9" >> "$SWEEP_RUN_DIR/stdout"
metrics:
  - name: value
    better: higher
    regex: 'value=(?<value>\d+)'
)");
  const auto run = box.sweep({"run", spec, "--label", "big"});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 0);
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == 1);
  // The workload's value (the run's telemetry metrics are there too: docs/telemetry.md).
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'value'") == 1);
  CHECK(scalar(db, "SELECT value FROM metrics WHERE name = 'value'") == 7);
  CHECK(scalar(db, "SELECT value FROM run_provenance WHERE key = 'ingest_warnings'") == 1);
  SQLite::Statement dir(db, "SELECT run_dir FROM runs");
  REQUIRE(dir.executeStep());
  CHECK_THAT(read_file(dir.getColumn(0).getString() + "/ingest_warnings"),
             Catch::Contains("only the first 268435456 of 2147483656 bytes were read for metrics"));
}
