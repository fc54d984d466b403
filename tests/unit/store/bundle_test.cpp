// store/bundle.cpp: a campaign written into a bundle and taken into another database with new ids,
// once; newer schemas and formats, garbage, damaged and hostile files refused; on real SQLite files.
#include <catch2/catch.hpp>

#include <fmt/core.h>

#include <SQLiteCpp/Database.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "store/bundle.h"
#include "store/store.h"
#include "temp_dir.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::store;

namespace {

/// The caps of a run as ingest has them (runner/run_limits.h), restated: this test links store alone.
constexpr BundleLimits kLimits{10'000, 1'000'000, 256};

CampaignRecord campaign(const std::string& label, const std::string& system) {
  CampaignRecord c;
  c.label = label;
  c.experiment = "demo";
  c.spec_path = "demo.yaml";
  c.spec_text = "name: demo\n";
  c.spec_hash = "h0";
  c.executor = "local";
  c.repetitions = 2;
  c.started_at = "2026-11-26T00:00:00.000Z";
  c.run_root = "/tmp/runs-" + label;
  c.system = system;
  return c;
}

std::vector<PointRecord> points() {
  return {PointRecord{"p1", 0, {{"batch", "16", "int", false}}}, PointRecord{"p2", 1, {{"batch", "32", "int", false}}}};
}

/// A campaign whose every run succeeded with metric t = its run id, a setting, a change and forecast rows.
std::int64_t finished_campaign(Store& db, const std::string& label, const std::string& system) {
  const auto id = db.create_campaign(campaign(label, system), points(), {{"site.text", "name: x\n"}});
  for (const auto& run : db.runs(id)) {
    const int attempt = db.begin_attempt(run.id, "/tmp/d", "t");
    AttemptResult r;
    r.state = RunState::succeeded;
    r.metrics.push_back({"t", 0, static_cast<double>(run.id), "s", "lower"});
    r.provenance.emplace_back("gpu.model", system + "-gpu");
    db.finish_attempt(run.id, attempt, r);
  }
  db.record_change(ChangeRecord{0, id, "now", "me", "host", "reparse", "what", ""});
  SQLite::Database raw(db.path(), SQLite::OPEN_READWRITE);
  raw.exec(fmt::format("INSERT INTO campaign_forecasts VALUES ({0}, 'p1', 2, 1, 0, 1.5, 2.5, 'history', NULL), "
                       "({0}, 'p2', 2, 1, 0, NULL, NULL, 'none', NULL)",
                       id));
  return id;
}

BundleFacts facts() { return BundleFacts{"2026-11-27T10:00:00Z", "0.test", {{"hostname", "node1"}, {"cpu_model", "x"}}}; }

/// Row counts of every table a bundle carries, for "nothing changed".
std::map<std::string, int> counts(const std::string& path) {
  SQLite::Database raw(path, SQLite::OPEN_READONLY);
  std::map<std::string, int> out;
  for (const char* t : {"campaigns", "points", "point_params", "runs", "attempts", "metrics", "run_provenance",
                        "campaign_settings", "campaign_changes", "campaign_forecasts"})
    out[t] = raw.execAndGet(fmt::format("SELECT count(*) FROM {}", t)).getInt();
  return out;
}

void sql(const std::string& path, const std::string& text) {
  SQLite::Database raw(path, SQLite::OPEN_READWRITE);
  raw.exec(text);
}

std::string refusal(Store& db, const std::string& bundle) {
  try {
    import_bundle(db, bundle, kLimits);
  } catch (const Error& e) {
    return e.what();
  }
  return "(imported)";
}

}  // namespace

TEST_CASE("a bundle carries one campaign, its rows and bundle_info") {
  TempDir dir;
  Store a(dir.file("a.db"));
  finished_campaign(a, "other", "lab-a");
  finished_campaign(a, "demo", "lab-a");
  export_bundle(a, "demo", facts(), dir.file("demo.sweep"));
  SQLite::Database raw(dir.file("demo.sweep"), SQLite::OPEN_READONLY);
  CHECK(raw.execAndGet("SELECT count(*) FROM campaigns").getInt() == 1);
  CHECK(raw.execAndGet("SELECT label FROM campaigns").getString() == "demo");
  CHECK(raw.execAndGet("SELECT count(*) FROM runs").getInt() == 4);
  CHECK(raw.execAndGet("SELECT count(*) FROM campaign_forecasts").getInt() == 2);
  CHECK(raw.execAndGet("SELECT value FROM bundle_info WHERE key = 'format'").getString() == "1");
  CHECK(raw.execAndGet("SELECT value FROM bundle_info WHERE key = 'source_database_id'").getString() == a.database_id());
  CHECK(raw.execAndGet("SELECT value FROM bundle_info WHERE key = 'system'").getString() == "lab-a");
  CHECK(raw.execAndGet("SELECT value FROM bundle_info WHERE key = 'host.hostname'").getString() == "node1");
  CHECK_THROWS_AS(export_bundle(a, "nope", facts(), dir.file("nope.sweep")), Error);
}

TEST_CASE("an import remaps every id, labels the campaign LABEL@SYSTEM and changes nothing the second time") {
  TempDir dir;
  Store a(dir.file("a.db"));
  finished_campaign(a, "demo", "lab-a");
  export_bundle(a, "demo", facts(), dir.file("demo.sweep"));
  Store b(dir.file("b.db"));
  finished_campaign(b, "demo", "lab-b");  // the same label here, and ids that the bundle's would collide with
  const auto before = counts(b.path());

  const ImportResult r = import_bundle(b, dir.file("demo.sweep"), kLimits);
  CHECK(r.label == "demo@lab-a");
  CHECK_FALSE(r.already_imported);
  CHECK(r.runs == 4);
  CHECK(r.origin_database_id == a.database_id());
  const auto imported = b.find_campaign("demo@lab-a");
  REQUIRE(imported);
  CHECK(imported->system == "lab-a");
  CHECK(imported->origin_label == "demo");
  CHECK(imported->run_root == "/tmp/runs-demo");  // recorded, never used as a path
  const auto runs = b.runs(imported->id);
  REQUIRE(runs.size() == 4);
  const auto local_runs = b.runs(b.find_campaign("demo")->id);
  for (const auto& run : runs) {
    for (const auto& local : local_runs) CHECK(run.id != local.id);
    CHECK(b.provenance(run.id, run.attempt) == KeyValues{{"gpu.model", "lab-a-gpu"}});
    CHECK(b.attempts(run.id).size() == 1);
  }
  // Each metric kept its value (the source's run id) under the new run id.
  const auto metrics = b.metrics(imported->id);
  REQUIRE(metrics.size() == 4);
  const auto source_metrics = a.metrics(a.find_campaign("demo")->id);
  for (std::size_t i = 0; i < metrics.size(); ++i) CHECK(metrics[i].metric.value == source_metrics[i].metric.value);
  CHECK(b.campaign_settings(imported->id).at("site.text") == "name: x\n");
  CHECK(b.changes(imported->id).size() == 1);
  auto after = counts(b.path());
  for (auto& [table, n] : before) CHECK(after[table] > n);
  SQLite::Database raw(b.path(), SQLite::OPEN_READONLY);
  CHECK(raw.execAndGet("SELECT count(*) FROM \"values:demo@lab-a\"").getInt() == 4);
  CHECK(raw.execAndGet(fmt::format("SELECT count(*) FROM campaign_forecasts WHERE campaign_id = {}", imported->id)).getInt() == 2);

  const ImportResult again = import_bundle(b, dir.file("demo.sweep"), kLimits);
  CHECK(again.already_imported);
  CHECK(again.label == "demo@lab-a");
  CHECK(counts(b.path()) == after);

  // A bundle of the imported campaign, taken into a third database, keeps the first origin.
  export_bundle(b, "demo@lab-a", facts(), dir.file("again.sweep"));
  Store c(dir.file("c.db"));
  CHECK(import_bundle(c, dir.file("again.sweep"), kLimits).label == "demo@lab-a");
  CHECK(import_bundle(c, dir.file("demo.sweep"), kLimits).already_imported);
  // ... and into its first database it is refused: the campaign is there already.
  CHECK_THAT(refusal(a, dir.file("again.sweep")), Catch::Contains("of this very database"));
}

TEST_CASE("a label taken by another origin gets the origin's id, and no system gets the id alone") {
  TempDir dir;
  Store a1(dir.file("a1.db"));
  Store a2(dir.file("a2.db"));
  Store b(dir.file("b.db"));
  finished_campaign(a1, "demo", "lab-a");
  finished_campaign(a2, "demo", "lab-a");
  export_bundle(a1, "demo", facts(), dir.file("a1.sweep"));
  export_bundle(a2, "demo", facts(), dir.file("a2.sweep"));
  CHECK(import_bundle(b, dir.file("a1.sweep"), kLimits).label == "demo@lab-a");
  CHECK(import_bundle(b, dir.file("a2.sweep"), kLimits).label == "demo@lab-a-" + a2.database_id().substr(0, 8));
  Store n(dir.file("n.db"));
  finished_campaign(n, "anon", "");
  export_bundle(n, "anon", facts(), dir.file("n.sweep"));
  CHECK(import_bundle(b, dir.file("n.sweep"), kLimits).label == "anon@" + n.database_id().substr(0, 8));
}

TEST_CASE("a bundle of a newer schema or format is refused with both versions named") {
  TempDir dir;
  Store a(dir.file("a.db"));
  finished_campaign(a, "demo", "lab-a");
  export_bundle(a, "demo", facts(), dir.file("schema.sweep"));
  export_bundle(a, "demo", facts(), dir.file("format.sweep"));
  sql(dir.file("schema.sweep"), "UPDATE schema_info SET version = 11");
  sql(dir.file("format.sweep"), "UPDATE bundle_info SET value = '2' WHERE key = 'format'");
  Store b(dir.file("b.db"));
  const auto before = counts(b.path());
  const std::string schema = refusal(b, dir.file("schema.sweep"));
  CHECK_THAT(schema, Catch::Contains(dir.file("schema.sweep")) && Catch::Contains("schema version 11") &&
                         Catch::Contains("schema version 10"));
  const std::string format = refusal(b, dir.file("format.sweep"));
  CHECK_THAT(format, Catch::Contains(dir.file("format.sweep")) && Catch::Contains("format 2") && Catch::Contains("format 1"));
  CHECK(counts(b.path()) == before);
}

TEST_CASE("garbage, damaged, empty and hostile files are refused naming the file") {
  TempDir dir;
  Store a(dir.file("a.db"));
  finished_campaign(a, "demo", "lab-a");
  Store b(dir.file("b.db"));
  std::ofstream(dir.file("garbage.sweep")) << "this is not a database\n" << std::string(5000, 'x');
  CHECK_THAT(refusal(b, dir.file("garbage.sweep")), Catch::Contains(dir.file("garbage.sweep")) && Catch::Contains("not a sweep bundle"));
  std::ofstream(dir.file("empty.sweep")).flush();
  CHECK_THAT(refusal(b, dir.file("empty.sweep")), Catch::Contains("has no table bundle_info"));
  CHECK_THAT(refusal(b, dir.file("absent.sweep")), Catch::Contains(dir.file("absent.sweep")));
  CHECK_THAT(refusal(b, a.path()), Catch::Contains("has no table bundle_info"));  // a database, not a bundle

  // Cut short: the file ends halfway through.
  export_bundle(a, "demo", facts(), dir.file("whole.sweep"));
  {
    std::ifstream in(dir.file("whole.sweep"), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    std::ofstream(dir.file("cut.sweep"), std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  }
  CHECK_THAT(refusal(b, dir.file("cut.sweep")), Catch::Contains(dir.file("cut.sweep")));

  // A view in the place of a table, a trigger, a label that is a path, a made-up origin.
  const std::vector<std::pair<std::string, std::string>> hostile = {
      {"view.sweep", "DROP TABLE run_provenance; CREATE VIEW run_provenance AS SELECT * FROM metrics"},
      {"label.sweep", "UPDATE campaigns SET label = '../../etc'"},
      {"origin.sweep", "UPDATE bundle_info SET value = 'x/../y' WHERE key = 'source_database_id'"},
      {"two.sweep", "INSERT INTO campaigns (label, experiment, spec_path, spec_text, spec_hash, executor, repetitions, "
                    "started_at, run_root) SELECT 'x', experiment, spec_path, spec_text, spec_hash, executor, repetitions, "
                    "started_at, run_root FROM campaigns"}};
  for (const auto& [file, text] : hostile) {
    export_bundle(a, "demo", facts(), dir.file(file));
    sql(dir.file(file), text);
  }
  const auto before = counts(b.path());
  CHECK_THAT(refusal(b, dir.file("view.sweep")), Catch::Contains("has no table run_provenance"));
  CHECK_THAT(refusal(b, dir.file("label.sweep")), Catch::Contains(dir.file("label.sweep")) && Catch::Contains("../../etc"));
  CHECK_THAT(refusal(b, dir.file("origin.sweep")), Catch::Contains("not 32 hex digits"));
  CHECK_THAT(refusal(b, dir.file("two.sweep")), Catch::Contains("holds 2 campaigns"));
  CHECK(counts(b.path()) == before);

  // Read as data under sweep's schema (issue 47): a column the bundle computes, values sweep never
  // stores (infinite, text or a blob where a number or text belongs) are refused, and nothing is written.
  const std::vector<std::pair<std::string, std::string>> computed = {
      {"generated.sweep",
       "PRAGMA legacy_alter_table = ON; CREATE TABLE m2 (run_id INTEGER NOT NULL, attempt INTEGER NOT NULL, name TEXT NOT NULL, idx INTEGER NOT NULL, "
       "unit TEXT NOT NULL, better TEXT NOT NULL, value REAL GENERATED ALWAYS AS (length(printf('%.*c', 100000000, 'x'))) "
       "VIRTUAL); INSERT INTO m2 (run_id, attempt, name, idx, unit, better) SELECT run_id, attempt, name, idx, unit, "
       "better FROM metrics; DROP TABLE metrics; ALTER TABLE m2 RENAME TO metrics"},
      {"typed.sweep", "ALTER TABLE run_provenance RENAME COLUMN value TO v; ALTER TABLE run_provenance ADD COLUMN value BLOB"},
      {"infinite.sweep", "UPDATE metrics SET value = 9e999"},
      {"text.sweep", "UPDATE metrics SET value = 'fast'"},
      {"blob.sweep", "UPDATE run_provenance SET value = x'00ff'"}};
  for (const auto& [file, text] : computed) {
    export_bundle(a, "demo", facts(), dir.file(file));
    sql(dir.file(file), text);
  }
  CHECK(refusal(b, dir.file("generated.sweep")) ==
        dir.file("generated.sweep") + " is not a sweep bundle: its column metrics.value is a generated or hidden column, "
                                      "where sweep's schema has an ordinary column of type REAL; nothing was imported");
  CHECK_THAT(refusal(b, dir.file("typed.sweep")), Catch::Contains("its column run_provenance.value is of type \"BLOB\""));
  CHECK(refusal(b, dir.file("infinite.sweep")) ==
        dir.file("infinite.sweep") + " is damaged: a row of metrics holds the non-finite number inf in value; nothing was imported");
  CHECK_THAT(refusal(b, dir.file("text.sweep")), Catch::Contains("a row of metrics holds the text \"fast\" (not a number) in value"));
  CHECK_THAT(refusal(b, dir.file("blob.sweep")), Catch::Contains("a row of run_provenance holds a blob in value"));
  // A sparse file of 5 GB around a small bundle is refused before anything is copied.
  export_bundle(a, "demo", facts(), dir.file("sparse.sweep"));
  std::filesystem::resize_file(dir.file("sparse.sweep"), 5ull << 30);
  CHECK_THAT(refusal(b, dir.file("sparse.sweep")),
             Catch::Contains(" is 5368709120 bytes, but the database its header describes is ") &&
                 Catch::Contains("nothing was copied or imported"));
  CHECK(counts(b.path()) == before);

  // A trigger in the bundle never fires here: the rows arrive as they were, and only they.
  export_bundle(a, "demo", facts(), dir.file("trigger.sweep"));
  sql(dir.file("trigger.sweep"), "CREATE TRIGGER t AFTER INSERT ON metrics BEGIN DELETE FROM campaigns; END");
  CHECK(import_bundle(b, dir.file("trigger.sweep"), kLimits).runs == 4);
  CHECK(b.campaigns().size() == 1);
}

TEST_CASE("a bundle of an older schema is migrated in a private copy, the file left as it was") {
  TempDir dir;
  Store a(dir.file("a.db"));
  finished_campaign(a, "demo", "lab-a");
  export_bundle(a, "demo", facts(), dir.file("old.sweep"));
  // Schema 9: no system, origin or forecasts.
  sql(dir.file("old.sweep"), "DROP INDEX campaigns_by_origin; DROP TABLE campaign_forecasts; "
                             "ALTER TABLE campaigns DROP COLUMN system; ALTER TABLE campaigns DROP COLUMN origin_database_id; "
                             "ALTER TABLE campaigns DROP COLUMN origin_label; UPDATE schema_info SET version = 9");
  std::ifstream in(dir.file("old.sweep"), std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  Store b(dir.file("b.db"));
  const ImportResult r = import_bundle(b, dir.file("old.sweep"), kLimits);
  CHECK(r.migrated);
  CHECK(r.bundle_schema == 9);
  CHECK(r.label == "demo@" + a.database_id().substr(0, 8));  // schema 9 knew no system
  CHECK(r.runs == 4);
  std::ifstream again(dir.file("old.sweep"), std::ios::binary);
  CHECK(std::string((std::istreambuf_iterator<char>(again)), {}) == bytes);
  CHECK(import_bundle(b, dir.file("old.sweep"), kLimits).already_imported);
}

TEST_CASE("a bundle's run with more values, metric names or a longer name than a run records is refused, naming it") {
  TempDir dir;
  Store a(dir.file("a.db"));
  finished_campaign(a, "demo", "lab-a");
  export_bundle(a, "demo", facts(), dir.file("demo.sweep"));
  Store b(dir.file("b.db"));
  const auto before = counts(b.path());
  // Each run of the demo holds one value of one metric named "t": within these, and then past each cap.
  CHECK(import_bundle(b, dir.file("demo.sweep"), BundleLimits{1, 1, 1}).runs == 4);
  Store c(dir.file("c.db"));
  const auto refused = [&](const BundleLimits& limits) {
    try {
      import_bundle(c, dir.file("demo.sweep"), limits);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(imported)");
  };
  const std::string values = refused(BundleLimits{1, 0, 1});
  CHECK_THAT(values, Catch::Contains("demo.sweep holds a run (point p1, repetition 0, attempt 1) with 1 metric values of 1 "
                                     "names, the longest 1 bytes; a run of this sweep records at most 0 values of 1 names "
                                     "of 1 bytes each; nothing was imported"));
  CHECK_THAT(refused(BundleLimits{0, 1, 1}), Catch::Contains("at most 1 values of 0 names"));
  CHECK_THAT(refused(BundleLimits{1, 1, 0}), Catch::Contains("of 0 bytes each"));
  // A bundle whose run was given many values (a hand-made one): refused under the real caps.
  sql(dir.file("demo.sweep"), "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10001) "
                              "INSERT INTO metrics (run_id, attempt, name, idx, value, unit, better) SELECT (SELECT min(id) "
                              "FROM runs), 1, 'm' || i, 0, 1.0, '', '' FROM n");
  CHECK_THAT(refused(kLimits), Catch::Contains("with 10002 metric values of 10002 names"));
  CHECK(counts(c.path()) == before);
}
