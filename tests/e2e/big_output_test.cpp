// Issue 32, item 6: one run's output has a bounded cost. A real workload prints a 200 MB metric line,
// or 10^6 distinct metric names; the run is ingested with what the limits keep and a counted warning
// each (docs/metrics-format.md#limits), and the campaign reports.
#include <catch2/catch.hpp>

#include "e2e/harness.h"

using namespace e2e;

namespace {

/// Runs a one-run campaign whose workload is `python3 -c <program>` and returns the database.
void run_one(const Sandbox& box, const std::string& label, const std::string& program) {
  box.write(label + ".py", program);
  box.write(label + ".yaml", "name: " + label + "\ntelemetry: false\nmatrix:\n  x: [1]\nworkload:\n  command: python3 " +
                                 box.path(label + ".py") + "\n");
  const Result r = box.sweep({"run", label + ".yaml", "--label", label});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(box.sweep({"report", label, "--no-figures"}).exit_code == 0);
}

std::string warnings_of(const Sandbox& box, const std::string& label) {
  auto db = box.db();
  SQLite::Statement q(db, "SELECT a.run_dir FROM attempts a JOIN runs r ON r.id = a.run_id JOIN campaigns c "
                          "ON c.id = r.campaign_id WHERE c.label = ?");
  q.bind(1, label);
  REQUIRE(q.executeStep());
  return read_file(q.getColumn(0).getString() + "/ingest_warnings");
}

}  // namespace

TEST_CASE("a 200 MB metric line is skipped unparsed and the run keeps its other values") {
  Sandbox box;
  // 46 bytes before the padding, 200 MiB of it, 2 after.
  run_one(box, "long", "import sys\nsys.stdout.write('{\"v\": 1, \"metric\": \"big\", \"value\": 1, \"pad\": \"')\n"
                       "for _ in range(200): sys.stdout.write('x' * (1 << 20))\n"
                       "sys.stdout.write('\"}\\n{\"v\": 1, \"metric\": \"small\", \"value\": 2}\\n')\n");
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'small' AND value = 2") == 1);
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'big'") == 0);
  CHECK_THAT(warnings_of(box, "long"), Catch::Contains("stdout:1: a JSON line of 209715248 bytes is longer than the "
                                                      "limit of 1048576 bytes on a metric line; skipped"));
}

TEST_CASE("a hundred thousand distinct metric names keep the first 10000 and count the rest") {
  Sandbox box;
  run_one(box, "many", "import sys\nw = sys.stdout.write\n"
                       "for i in range(100000): w('{\"v\": 1, \"metric\": \"m%d\", \"value\": 1}\\n' % i)\n");
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(DISTINCT name) FROM metrics") == 10000);
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'm9999'") == 1);
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'm10000'") == 0);
  CHECK_THAT(warnings_of(box, "many"),
             Catch::Contains("90000 values of metrics beyond the first 10000 distinct metric names were skipped"));
}
