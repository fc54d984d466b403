// Bundles across systems (docs/forecasts.md, "Systems and bundles"), through the real binary: one
// experiment run under two site files (two systems) into two databases; the first campaign exported,
// imported into the second database twice (the second time nothing changes), listed, compared and
// reported beside the local one; what an imported campaign refuses; newer, garbage and hostile bundles.
#include <catch2/catch.hpp>

#include <SQLiteCpp/Database.h>

#include <filesystem>
#include <map>

#include "e2e/harness.h"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

/// Row counts of the tables a bundle fills, and the views: what "nothing changed" compares.
std::map<std::string, long long> row_counts(const std::string& db_path) {
  SQLite::Database db(db_path, SQLite::OPEN_READONLY);
  std::map<std::string, long long> out;
  for (const char* t : {"campaigns", "points", "point_params", "runs", "attempts", "metrics", "run_provenance",
                        "campaign_settings", "campaign_changes", "campaign_forecasts"})
    out[t] = scalar(db, std::string("SELECT count(*) FROM ") + t);
  out["views"] = scalar(db, "SELECT count(*) FROM sqlite_master WHERE type = 'view'");
  return out;
}

/// Two systems, one experiment: results-a/ on "lab-a", results-b/ on "National Centre" (n=1 20% slower).
void run_on_two_systems(const Sandbox& box) {
  write_speed_experiment(box, 3);
  box.write("site-a.yaml", "format: 1\nname: lab-a\n");
  box.write("site-b.yaml", "format: 1\nname: National Centre\n");
  box.write("shift-1.txt", "0\n");
  box.write("shift-2.txt", "0\n");
  const auto a = box.sweep({"run", "speed.yaml", "--label", "demo", "--site", "site-a.yaml", "--results", "results-a"});
  INFO(a.out << a.err);
  REQUIRE(a.exit_code == 0);
  box.write("shift-1.txt", "-200\n");
  const auto b = box.sweep({"run", "speed.yaml", "--label", "demo", "--site", "site-b.yaml", "--results", "results-b"});
  INFO(b.out << b.err);
  REQUIRE(b.exit_code == 0);
}

}  // namespace

TEST_CASE("a campaign exported from one system is imported once, listed, compared and reported on another") {
  Sandbox box;
  run_on_two_systems(box);
  const auto exported = box.sweep({"export", "--bundle", "demo", "--results", "results-a", "--output", "demo-a.sweep"});
  INFO(exported.out << exported.err);
  REQUIRE(exported.exit_code == 0);
  // To standard output, the same bundle streamed: an SQLite file.
  const auto streamed = box.sweep({"export", "--bundle", "demo", "--results", "results-a"});
  REQUIRE(streamed.exit_code == 0);
  CHECK(streamed.out.rfind(std::string("SQLite format 3\0", 16), 0) == 0);

  const std::string db_b = box.path("results-b/sweep.db");
  const auto before = row_counts(db_b);
  const auto first = box.sweep({"import", "demo-a.sweep", "--results", "results-b"});
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 0);
  CHECK_THAT(first.out, Catch::Contains("imported campaign \"demo\" of system lab-a as \"demo@lab-a\": 6 runs"));
  const auto after = row_counts(db_b);
  CHECK(after.at("runs") == before.at("runs") + 6);
  CHECK(after.at("campaigns") == before.at("campaigns") + 1);

  const auto second = box.sweep({"import", box.path("demo-a.sweep"), "--results", "results-b"});
  INFO(second.out << second.err);
  CHECK(second.exit_code == 0);
  CHECK_THAT(second.out, Catch::Contains("already imported as \"demo@lab-a\"; nothing changed"));
  CHECK(row_counts(db_b) == after);

  // sweep ls names each campaign's system, now that two meet.
  const auto ls = box.sweep({"ls", "--results", "results-b"});
  INFO(ls.out);
  CHECK_THAT(ls.out, Catch::Contains("system") && Catch::Contains("lab-a") && Catch::Contains("National Centre") &&
                         Catch::Contains("demo@lab-a"));
  const auto ls_json = box.sweep({"ls", "--results", "results-b", "--format", "json"});
  CHECK_THAT(ls_json.out, Catch::Contains("\"system\": \"lab-a\", \"origin\": {\"database_id\": ") &&
                              Catch::Contains("\"label\": \"demo\"}") && Catch::Contains("\"origin\": null"));
  // A database of one system shows no system column.
  CHECK_THAT(box.sweep({"ls", "--results", "results-a"}).out, !Catch::Contains("system"));

  // compare across the systems: each side's system named, the slower point found.
  const auto text = box.sweep({"compare", "demo@lab-a", "demo", "--results", "results-b"});
  INFO(text.out << text.err);
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("system: baseline demo@lab-a on lab-a, candidate demo on National Centre"));
  CHECK_THAT(text.out, Catch::Contains("1 regressed"));
  CHECK_THAT(text.out, Catch::Contains("changed: system lab-a -> National Centre"));  // what changed, with the verdicts
  const auto json = box.sweep({"compare", "demo@lab-a", "demo", "--results", "results-b", "--format", "json"});
  CHECK_THAT(json.out, Catch::Contains("\"baseline_system\": \"lab-a\", \"candidate_system\": \"National Centre\""));

  // The report of the imported campaign: its directory is its label, its provenance names its system.
  const auto report = box.sweep({"report", "demo@lab-a", "--results", "results-b", "--reports", "reports", "--no-figures"});
  INFO(report.out << report.err);
  REQUIRE(report.exit_code == 0);
  const std::string md = read_file(box.path("reports/demo@lab-a/report.md"));
  CHECK_THAT(md, Catch::Contains("System: lab-a (imported: campaign demo of database "));
  CHECK_THAT(read_file(box.path("reports/demo@lab-a/report.html")), Catch::Contains("<th>system</th><td>lab-a</td>"));
  const auto local_report = box.sweep({"report", "demo", "--results", "results-b", "--reports", "reports", "--no-figures"});
  REQUIRE(local_report.exit_code == 0);
  CHECK_THAT(read_file(box.path("reports/demo/report.md")), Catch::Contains("System: National Centre."));
  // The values view and the CSV export take the label as it is.
  SQLite::Database db(db_b, SQLite::OPEN_READONLY);
  CHECK(scalar(db, "SELECT count(*) FROM \"values:demo@lab-a\" WHERE metric = 'speed'") == 6);
  const auto csv = box.sweep({"export", "demo@lab-a", "--results", "results-b", "--output", "demo@lab-a.csv"});
  REQUIRE(csv.exit_code == 0);
  CHECK_THAT(read_file(box.path("demo@lab-a.csv")), Catch::Contains("demo@lab-a,"));
  const auto show = box.sweep({"show", "demo@lab-a", "--results", "results-b"});
  CHECK_THAT(show.out, Catch::Contains("system       lab-a") && Catch::Contains("imported     label \"demo\""));
}

TEST_CASE("an imported campaign is never resumed, changed or given a path, and rm removes only its rows") {
  Sandbox box;
  run_on_two_systems(box);
  REQUIRE(box.sweep({"export", "--bundle", "demo", "--results", "results-a", "--output", "demo-a.sweep"}).exit_code == 0);
  REQUIRE(box.sweep({"import", "demo-a.sweep", "--results", "results-b"}).exit_code == 0);
  const auto before = row_counts(box.path("results-b/sweep.db"));
  const std::vector<std::vector<std::string>> refused = {{"run", "--resume", "demo@lab-a"},
                                                         {"collect", "demo@lab-a"},
                                                         {"rerun", "demo@lab-a", "--state", "all"},
                                                         {"extend", "demo@lab-a", "--repetitions", "1"},
                                                         {"reparse", "demo@lab-a"},
                                                         {"logs", "demo@lab-a"}};
  for (auto args : refused) {
    args.insert(args.end(), {"--results", "results-b"});
    const auto r = box.sweep(args);
    INFO(args[0] << ": " << r.out << r.err);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("demo@lab-a") && Catch::Contains("imported"));
  }
  CHECK(row_counts(box.path("results-b/sweep.db")) == before);
  // A local label never holds '@'.
  CHECK(box.sweep({"run", "speed.yaml", "--label", "x@lab-a", "--results", "results-b"}).exit_code == 2);

  // Its recorded run root is results-a/demo, a real directory here: rm leaves it alone.
  REQUIRE(fs::exists(box.path("results-a/demo")));
  const auto rm = box.sweep({"rm", "demo@lab-a", "--yes", "--results", "results-b"});
  INFO(rm.out << rm.err);
  REQUIRE(rm.exit_code == 0);
  CHECK_THAT(rm.out, Catch::Contains("imported: its rows only"));
  CHECK(fs::exists(box.path("results-a/demo")));
  CHECK(box.sweep({"ls", "--results", "results-a"}).out.find("demo") != std::string::npos);
  const auto after = row_counts(box.path("results-b/sweep.db"));
  CHECK(after.at("campaigns") == before.at("campaigns") - 1);
  // Removed, it can be imported again.
  CHECK(box.sweep({"import", "demo-a.sweep", "--results", "results-b"}).exit_code == 0);
}

TEST_CASE("newer, garbage, damaged and not-bundle files are refused naming the file, and nothing changes") {
  Sandbox box;
  run_on_two_systems(box);
  REQUIRE(box.sweep({"export", "--bundle", "demo", "--results", "results-a", "--output", "newer.sweep"}).exit_code == 0);
  {
    SQLite::Database newer(box.path("newer.sweep"), SQLite::OPEN_READWRITE);
    newer.exec("UPDATE schema_info SET version = 99");
  }
  box.write("garbage.sweep", std::string("not a database at all\n") + std::string(3000, '\x01'));
  const auto before = row_counts(box.path("results-b/sweep.db"));
  const auto newer = box.sweep({"import", "newer.sweep", "--results", "results-b"});
  CHECK(newer.exit_code == 5);
  CHECK_THAT(newer.err, Catch::Contains("newer.sweep") && Catch::Contains("schema version 99") &&
                            Catch::Contains("schema version 10"));
  const auto garbage = box.sweep({"import", "garbage.sweep", "--results", "results-b"});
  CHECK(garbage.exit_code == 5);
  CHECK_THAT(garbage.err, Catch::Contains("garbage.sweep is not a sweep bundle"));
  const auto database = box.sweep({"import", box.path("results-a/sweep.db"), "--results", "results-b"});
  CHECK(database.exit_code == 5);
  CHECK_THAT(database.err, Catch::Contains("results-a/sweep.db is not a sweep bundle: it has no table bundle_info"));
  CHECK(box.sweep({"import", "absent.sweep", "--results", "results-b"}).exit_code == 4);
  CHECK(row_counts(box.path("results-b/sweep.db")) == before);
  // The file given is never written: the older or newer schema is read from a private copy.
  CHECK_FALSE(fs::exists(box.path("newer.sweep-journal")));
}
