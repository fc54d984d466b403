// Names and files that cannot collide (issue 32 item 5): labels that would shadow the database, a
// directory already named like a label, two databases on one results directory, a stored experiment
// changed outside sweep, and two `sweep run` of one new label at once (issue 47). Real processes, real
// SQLite files; any user.
#include <catch2/catch.hpp>
#include <sys/wait.h>

#include <filesystem>
#include <string>

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

TEST_CASE("two sweep run of one new label at once: one runs it whole, the other is refused having touched nothing") {
  Sandbox box;
  write_experiment(box);
  REQUIRE(box.sweep({"run", "e.yaml", "--label", "warm"}).exit_code == 0);  // the two race for a label, not the schema
  constexpr int kTrials = 10;
  for (int trial = 0; trial < kTrials; ++trial) {
    const std::string label = "race" + std::to_string(trial);
    const int pid = box.spawn_sweep({"run", "e.yaml", "--label", label});
    const auto fg = box.sweep({"run", "e.yaml", "--label", label});
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    const int bg = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    const std::string bg_err = read_file(box.path(".sweep.bg.err"));
    INFO("trial " << trial << "\nforeground " << fg.exit_code << ": " << fg.err << "\nbackground " << bg << ": " << bg_err);
    // One ran the campaign (exit 0). The other was refused (exit 2), saying why, or came after it had
    // ended and found it complete (exit 0, nothing run again).
    CHECK((fg.exit_code == 0 || bg == 0));
    for (const auto& [code, err] : {std::pair{fg.exit_code, fg.err}, std::pair{bg, bg_err}}) {
      CHECK((code == 0 || code == 2));
      if (code == 2) CHECK_THAT(err, Catch::Contains("another sweep") || Catch::Contains("already exists"));
    }
    auto db = box.db();
    CHECK(scalar(db, "SELECT count(*) FROM campaigns WHERE label = '" + label + "'") == 1);
    CHECK(scalar(db, "SELECT count(*) FROM runs r JOIN campaigns c ON c.id = r.campaign_id WHERE c.label = '" + label +
                         "' AND r.state = 'succeeded'") == 2);
    CHECK(fs::exists(box.path("results/" + label + "/.sweep-run-root")));
  }
  // Each run ran once: the warm campaign's and one per trial, never twice.
  CHECK(count_lines(box.path("ledger-1")) == std::map<std::string, int>{{"value 1", kTrials + 1}});
  CHECK(count_lines(box.path("ledger-2")) == std::map<std::string, int>{{"value 2", kTrials + 1}});
}
