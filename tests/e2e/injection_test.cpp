#include <catch2/catch.hpp>

#include <filesystem>

#include "e2e/harness.h"

using namespace e2e;

TEST_CASE("hostile parameter values reach the program as literal strings and are never executed") {
  Sandbox box;
  const std::string canary = box.path("CANARY");
  // Each value tries a different way out of a shell word.
  const std::vector<std::string> values{"$(touch " + canary + ")", "a'; touch " + canary + "; echo '",
                                        "`touch " + canary + "`", "x\" && touch " + canary + " && \"",
                                        "*", "-rf", "line1\nline2 ; touch " + canary,
                                        "'); DROP TABLE runs;--", "\"; DELETE FROM metrics; --"};
  std::string yaml = "name: hostile\nmatrix:\n  v:\n";
  for (const auto& v : values) {
    std::string escaped;
    for (char c : v) escaped += c == '\n' ? std::string("\\n") : c == '"' ? std::string("\\\"") : std::string(1, c);
    yaml += "    - \"" + escaped + "\"\n";
  }
  yaml += "workdir: run\nworkload:\n  command: printf '%s' {{v}} > got.txt\n";  // got.txt in each run's directory
  box.write("hostile.yaml", yaml);

  const auto run = box.sweep({"run", "hostile.yaml", "--label", "h"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK_FALSE(std::filesystem::exists(canary));

  auto db = box.db();
  SQLite::Statement q(db, "SELECT p.value, r.run_dir FROM runs r JOIN point_params p ON p.point_id = r.point_id "
                          "WHERE p.name = 'v'");
  int seen = 0;
  while (q.executeStep()) {
    ++seen;
    CHECK(read_file(q.getColumn(1).getString() + "/got.txt") == q.getColumn(0).getString());
  }
  CHECK(seen == static_cast<int>(values.size()));
  // The SQL-looking values are stored as values (every statement binds its parameters): the tables are
  // all there, and sweep still reads the campaign.
  CHECK(scalar(db, "SELECT count(*) FROM runs") == static_cast<long long>(values.size()));
  SQLite::Statement stored(db, "SELECT count(*) FROM point_params WHERE value = ?");
  stored.bind(1, "'); DROP TABLE runs;--");
  REQUIRE(stored.executeStep());
  CHECK(stored.getColumn(0).getInt() == 1);
  CHECK(box.sweep({"report", "h", "--no-figures"}).exit_code == 0);
  CHECK(box.sweep({"show", "h"}).exit_code == 0);
}
