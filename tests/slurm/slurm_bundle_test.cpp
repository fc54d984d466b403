// Bundles across systems on the development cluster (docs/forecasts.md, "Systems and bundles"): one
// experiment run as Slurm job arrays under two site files (two systems) into two databases; the first
// exported, imported into the second twice (the second time nothing changes), listed and compared
// across the systems, and refused by collect.
#include <catch2/catch.hpp>

#include <SQLiteCpp/Database.h>

#include "slurm/slurm_harness.h"

using namespace slurmtest;

namespace {

long long rows(const std::string& db_path, const std::string& table) {
  SQLite::Database db(db_path, SQLite::OPEN_READONLY);
  return e2e::scalar(db, "SELECT count(*) FROM " + table);
}

}  // namespace

TEST_CASE("a Slurm campaign of one system is exported, imported once and compared on another") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string la = unique_label(box, "ba"), lb = unique_label(box, "bb");
  box.write("speed.yaml", "name: speed\nexecutor: slurm\ntelemetry: false\nmatrix: {n: [1, 2]}\nrepetitions: 3\n"
                          "resources: {time: 2}\n"
                          "workload:\n  command: >-\n    echo \"{\\\"v\\\": 1, \\\"metric\\\": \\\"speed\\\", \\\"value\\\": "
                          "$(( {{n}} * 1000 + {{repetition}} )), \\\"unit\\\": \\\"it/s\\\", \\\"better\\\": \\\"higher\\\"}\"\n");
  box.write("site-a.yaml", "format: 1\nname: lab-a\n");
  box.write("site-b.yaml", "format: 1\nname: centre-b\n");
  const auto a = box.sweep({"run", "speed.yaml", "--label", la, "--site", "site-a.yaml", "--results", "results-a", "--poll-max", "1"});
  INFO(a.out << a.err);
  REQUIRE(a.exit_code == 0);
  const auto b = box.sweep({"run", "speed.yaml", "--label", lb, "--site", "site-b.yaml", "--results", "results-b", "--poll-max", "1"});
  INFO(b.out << b.err);
  REQUIRE(b.exit_code == 0);

  const auto exported = box.sweep({"export", "--bundle", la, "--results", "results-a", "--output", "a.sweep"});
  INFO(exported.out << exported.err);
  REQUIRE(exported.exit_code == 0);
  const std::string db_b = box.path("results-b/sweep.db");
  const auto first = box.sweep({"import", "a.sweep", "--results", "results-b"});
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 0);
  const std::string imported = la + "@lab-a";
  CHECK_THAT(first.out, Catch::Contains("as \"" + imported + "\": 6 runs"));
  const long long runs = rows(db_b, "runs"), metrics = rows(db_b, "metrics"), provenance = rows(db_b, "run_provenance");
  CHECK(runs == 12);
  const auto second = box.sweep({"import", "a.sweep", "--results", "results-b"});
  CHECK(second.exit_code == 0);
  CHECK_THAT(second.out, Catch::Contains("already imported as \"" + imported + "\""));
  CHECK(rows(db_b, "runs") == runs);
  CHECK(rows(db_b, "metrics") == metrics);
  CHECK(rows(db_b, "run_provenance") == provenance);
  // The Slurm provenance came along: the node list the other system's jobs ran on.
  {
    SQLite::Database db(db_b, SQLite::OPEN_READONLY);
    CHECK(e2e::scalar(db, "SELECT count(*) FROM run_provenance p JOIN runs r ON r.id = p.run_id JOIN campaigns c ON "
                          "c.id = r.campaign_id WHERE c.label = '" + imported + "' AND p.key = 'slurm.node_list'") == 6);
  }

  const auto ls = box.sweep({"ls", "--results", "results-b"});
  CHECK_THAT(ls.out, Catch::Contains("system") && Catch::Contains("lab-a") && Catch::Contains("centre-b"));
  const auto compare = box.sweep({"compare", imported, lb, "--results", "results-b"});
  INFO(compare.out << compare.err);
  REQUIRE(compare.exit_code == 0);
  CHECK_THAT(compare.out, Catch::Contains("system: baseline " + imported + " on lab-a, candidate " + lb + " on centre-b"));
  CHECK_THAT(compare.out, Catch::Contains("2 unchanged"));
  CHECK_THAT(compare.out, Catch::Contains("changed: system lab-a -> centre-b"));
  const auto report = box.sweep({"report", imported, "--results", "results-b", "--reports", "reports", "--no-figures"});
  INFO(report.out << report.err);
  CHECK(report.exit_code == 0);
  CHECK_THAT(e2e::read_file(box.path("reports/" + imported + "/report.md")), Catch::Contains("System: lab-a (imported"));
  // collect never claims the other system's run root (its path exists here: same machine).
  const auto collect = box.sweep({"collect", imported, "--results", "results-b"});
  CHECK(collect.exit_code == 2);
  CHECK_THAT(collect.err, Catch::Contains("was imported"));
}
