// Names and files that cannot collide (issue 32 item 5): labels that would shadow the database, a
// directory already named like a label, two databases on one results directory, and a stored
// experiment changed outside sweep. Real processes, real SQLite files; any user.
#include <catch2/catch.hpp>

#include <filesystem>

#include "e2e/harness.h"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

/// Writes e.yaml: two points whose runs append a line to <sandbox>/ledger-<x>.
void write_experiment(const Sandbox& box) {
  box.write("e.yaml", "name: e\nmatrix:\n  x: [1, 2]\nworkload:\n  command: echo value {{x}} >> " + box.path("ledger-") +
                          "{{x}}\n");
}

SQLite::Database writable(const Sandbox& box, const std::string& rel = "results/sweep.db") {
  return SQLite::Database(box.path(rel), SQLite::OPEN_READWRITE);
}

/// Every run's stdout under results/<label>, concatenated in name order: what a second campaign must not touch.
std::string logs_of(const Sandbox& box, const std::string& label) {
  return shell("cd " + box.path("results/" + label) + " && for f in $(ls -d */ | sort); do cat $f/stdout $f/run.sh; done").out;
}

}  // namespace

TEST_CASE("labels named like the database's files are refused, and every later command still works") {
  Sandbox box;
  write_experiment(box);
  REQUIRE(box.sweep({"run", "e.yaml", "--label", "first"}).exit_code == 0);
  for (const char* label : {"sweep.db", "sweep.db-journal", "sweep.db-wal", "sweep.db-shm"}) {
    const auto r = box.sweep({"run", "e.yaml", "--label", label});
    INFO(label << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("choose another --label"));
    const auto ls = box.sweep({"ls"});
    INFO(ls.err);
    CHECK(ls.exit_code == 0);
  }
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM campaigns") == 1);  // nothing half-made
  CHECK(fs::is_regular_file(box.path("results/sweep.db")));
  CHECK_FALSE(fs::exists(box.path("results/sweep.db-journal")));
}

TEST_CASE("an existing directory named like a label is never adopted, and nothing is recorded") {
  Sandbox box;
  write_experiment(box);
  fs::create_directories(box.path("results/taken/stale"));
  const auto r = box.sweep({"run", "e.yaml", "--label", "taken"});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("results/taken already exists"));
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM campaigns") == 0);
  CHECK(fs::exists(box.path("results/taken/stale")));
  // A dry run's directory is the one taken as it is: the campaign that follows it runs.
  REQUIRE(box.sweep({"run", "e.yaml", "--label", "tried", "--dry-run"}).exit_code == 0);
  const auto after_dry = box.sweep({"run", "e.yaml", "--label", "tried"});
  INFO(after_dry.err);
  CHECK(after_dry.exit_code == 0);
}

TEST_CASE("a second database on the same results directory never reuses a label's runs") {
  Sandbox box;
  write_experiment(box);
  REQUIRE(box.sweep({"run", "e.yaml", "--label", "L", "--db", "a.db"}).exit_code == 0);
  const std::string before = logs_of(box, "L");
  REQUIRE_FALSE(before.empty());

  const auto second = box.sweep({"run", "e.yaml", "--label", "L", "--db", "b.db"});
  INFO(second.err);
  CHECK(second.exit_code == 2);
  CHECK_THAT(second.err, Catch::Contains("already exists"));
  CHECK(logs_of(box, "L") == before);
  CHECK(read_file(box.path("ledger-1")) == "value 1\n");  // the first campaign's runs alone ran
  SQLite::Database b(box.path("b.db"));
  CHECK(scalar(b, "SELECT count(*) FROM campaigns") == 0);

  // b.db made a campaign L elsewhere, then pointed at a.db's directory: resume refuses it.
  REQUIRE(box.sweep({"run", "e.yaml", "--label", "L", "--db", "b.db", "--results", "other"}).exit_code == 0);
  {
    auto rw = writable(box, "b.db");
    rw.exec("UPDATE campaigns SET run_root = '" + box.path("results/L") + "'");
    rw.exec("UPDATE runs SET state = 'pending'");
  }
  const auto resumed = box.sweep({"run", "--resume", "L", "--db", "b.db"});
  INFO(resumed.err);
  CHECK(resumed.exit_code == 2);
  CHECK_THAT(resumed.err, Catch::Contains("never adopts another database's runs"));
  CHECK(logs_of(box, "L") == before);
  CHECK(read_file(box.path("ledger-1")) == "value 1\nvalue 1\n");  // a.db's run and b.db's first, no more
  // The database that made the directory still resumes it.
  CHECK(box.sweep({"run", "--resume", "L", "--db", "a.db"}).exit_code == 0);
}

TEST_CASE("a stored experiment changed outside sweep is refused by resume and collect, and nothing runs") {
  Sandbox box;
  write_experiment(box);
  REQUIRE(box.sweep({"run", "e.yaml", "--label", "t"}).exit_code == 0);
  const std::string canary = box.path("CANARY");
  {
    auto db = writable(box);
    db.exec("UPDATE campaigns SET spec_text = replace(spec_text, 'echo value', 'touch " + canary + "; echo value')");
    db.exec("UPDATE runs SET state = 'pending'");
  }
  const auto resumed = box.sweep({"run", "--resume", "t"});
  INFO(resumed.err);
  CHECK(resumed.exit_code == 5);
  CHECK_THAT(resumed.err, Catch::Contains("does not match its stored SHA-256"));
  const auto collected = box.sweep({"collect", "t"});
  CHECK_THAT(collected.err, Catch::Contains("does not match its stored SHA-256"));
  CHECK_FALSE(fs::exists(canary));
  CHECK(read_file(box.path("ledger-1")) == "value 1\n");

  // The check is what stopped it: with the hash made to match, the same text runs.
  {
    auto db = writable(box);
    const std::string text = db.execAndGet("SELECT spec_text FROM campaigns").getString();
    box.write("stored.txt", text);
    const std::string hash = shell("sha256sum " + box.path("stored.txt") + " | cut -c1-64").out.substr(0, 64);
    db.exec("UPDATE campaigns SET spec_hash = '" + hash + "'");
  }
  CHECK(box.sweep({"run", "--resume", "t"}).exit_code == 0);
  CHECK(fs::exists(canary));
}
