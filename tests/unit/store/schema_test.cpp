#include <catch2/catch.hpp>

#include <SQLiteCpp/Database.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "store/schema.h"
#include "store/store.h"
#include "temp_dir.h"
#include "util/error.h"

using namespace sweep;

namespace {

/// What version 10 added, dropped first by each test that takes a database back to an older version.
constexpr const char* kUndoV10 =
    "DROP INDEX campaigns_by_origin; DROP TABLE campaign_forecasts; ALTER TABLE campaigns DROP COLUMN system; "
    "ALTER TABLE campaigns DROP COLUMN origin_database_id; ALTER TABLE campaigns DROP COLUMN origin_label; ";

/// A database at `path` holding one campaign "old" (of `c`), taken back to an older version by `undo`
/// (run after kUndoV10), as a sweep of that version left it.
void old_database(const std::string& path, store::CampaignRecord c, const char* undo) {
  {
    store::Store db(path);
    c.label = "old";
    db.create_campaign(c, {});
  }
  SQLite::Database raw(path, SQLite::OPEN_READWRITE);
  raw.exec(kUndoV10);
  raw.exec(undo);
}

}  // namespace

TEST_CASE("a database of a newer schema version is refused with a clear message") {
  TempDir dir;
  const auto path = dir.file("sweep.db");
  { store::Store db(path); }
  {
    SQLite::Database raw(path, SQLite::OPEN_READWRITE);
    raw.exec("UPDATE schema_info SET version = 99");
  }
  try {
    store::Store db(path);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::database);
    CHECK_THAT(e.what(), Catch::Contains("schema version 99") && Catch::Contains("newer"));
  }
}

TEST_CASE("a database that is not sweep's, or not SQLite at all, is refused") {
  TempDir dir;
  const auto other = dir.file("other.db");
  {
    SQLite::Database raw(other, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    raw.exec("CREATE TABLE t (x)");
  }
  CHECK_THROWS_WITH(store::Store(other), Catch::Contains("not a sweep results database"));

  const auto garbage = dir.file("garbage.db");
  std::ofstream(garbage) << std::string(4096, 'x');
  CHECK_THROWS_AS(store::Store(garbage), Error);
}

namespace {
std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
}  // namespace

TEST_CASE("a foreign SQLite file is refused before anything is written to it") {
  TempDir dir;
  const auto other = dir.file("notes.db");
  {
    SQLite::Database raw(other, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    raw.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')");
  }
  const std::string before = bytes_of(other);
  REQUIRE(before.size() > 100);
  REQUIRE(static_cast<unsigned char>(before[18]) == 1);  // rollback journal: file format write version 1
  CHECK_THROWS_WITH(store::Store(other), Catch::Contains("not a sweep results database"));
  CHECK(bytes_of(other) == before);  // not switched to WAL (bytes 18 and 19 would become 2)
  CHECK_FALSE(std::filesystem::exists(other + "-wal"));
  CHECK_FALSE(std::filesystem::exists(other + "-journal"));
}

TEST_CASE("the schema is created in WAL mode with the current version") {
  TempDir dir;
  const auto path = dir.file("sweep.db");
  { store::Store db(path); }
  SQLite::Database raw(path, SQLite::OPEN_READONLY);
  CHECK(raw.execAndGet("PRAGMA journal_mode").getString() == "wal");
  CHECK(raw.execAndGet("SELECT version FROM schema_info").getInt() == store::kSchemaVersion);
}

TEST_CASE("a version 3 database gains the views, and each of its campaigns its values view") {
  TempDir dir;
  const auto path = dir.file("sweep.db");
  {
    store::Store db(path);
    store::CampaignRecord c;
    c.label = "old";
    c.experiment = c.spec_path = c.spec_text = c.spec_hash = c.executor = c.started_at = c.run_root = "x";
    c.repetitions = 1;
    db.create_campaign(c, {store::PointRecord{"p1", 0, {{"batch", "16", "int", false}}}});
  }
  {  // back to version 3, as a sweep before the views left it
    SQLite::Database raw(path, SQLite::OPEN_READWRITE);
    raw.exec(kUndoV10);
    raw.exec("DROP VIEW \"values:old\"; DROP VIEW metric_values; DROP VIEW parameter_values; DROP TABLE campaign_changes; "
             "DROP TABLE campaign_settings; DROP TABLE schema_info; CREATE TABLE schema_info (version INTEGER NOT NULL); "
             "INSERT INTO schema_info (version) VALUES (3); "
             "ALTER TABLE campaigns DROP COLUMN experiment_dir; ALTER TABLE campaigns DROP COLUMN launch_dir");
  }
  { store::Store db(path); }
  SQLite::Database raw(path, SQLite::OPEN_READONLY);
  CHECK(raw.execAndGet("SELECT version FROM schema_info").getInt() == store::kSchemaVersion);
  CHECK(raw.execAndGet("SELECT length(database_id) FROM schema_info").getInt() == 32);
  CHECK(raw.execAndGet("SELECT count(*) FROM sqlite_master WHERE type = 'view'").getInt() == 3);
  CHECK(raw.execAndGet("SELECT value FROM parameter_values WHERE name = 'batch'").getInt() == 16);
  SQLite::Statement columns(raw, "SELECT name FROM pragma_table_info('values:old') ORDER BY cid DESC LIMIT 1");
  REQUIRE(columns.executeStep());
  CHECK(columns.getColumn(0).getString() == "batch");
}

TEST_CASE("version 5 gives every database its own random id, kept across opens") {
  TempDir dir;
  std::string first, second;
  {
    store::Store a(dir.file("a.db"));
    store::Store b(dir.file("b.db"));
    first = a.database_id();
    second = b.database_id();
  }
  CHECK(first.size() == 32);
  CHECK(first != second);
  store::Store again(dir.file("a.db"));
  CHECK(again.database_id() == first);
}

TEST_CASE("version 6 records a campaign's experiment and launch directories and older campaigns read as empty") {
  TempDir dir;
  const std::string path = dir.file("sweep.db");
  {
    store::Store db(path);
    store::CampaignRecord c;
    c.label = "old";
    c.experiment = c.spec_path = c.spec_text = c.spec_hash = c.executor = c.started_at = c.run_root = "x";
    db.create_campaign(c, {store::PointRecord{"p1", 0, {{"batch", "16", "int", false}}}});
  }
  {  // back to version 5, as a sweep before the directories left it
    SQLite::Database raw(path, SQLite::OPEN_READWRITE);
    raw.exec(kUndoV10);
    raw.exec("ALTER TABLE campaigns DROP COLUMN experiment_dir; ALTER TABLE campaigns DROP COLUMN launch_dir; "
             "DROP TABLE campaign_changes; DROP TABLE campaign_settings; UPDATE schema_info SET version = 5");
  }
  store::Store db(path);
  const auto old = db.find_campaign("old");
  REQUIRE(old);
  CHECK(old->experiment_dir.empty());
  CHECK(old->launch_dir.empty());
  store::CampaignRecord c;
  c.label = "new";
  c.experiment = c.spec_path = c.spec_text = c.spec_hash = c.executor = c.started_at = c.run_root = "x";
  c.experiment_dir = "/home/u/project";
  c.launch_dir = "/home/u";
  db.create_campaign(c, {store::PointRecord{"p1", 0, {{"batch", "16", "int", false}}}});
  const auto now = db.find_campaign("new");
  REQUIRE(now);
  CHECK(now->experiment_dir == "/home/u/project");
  CHECK(now->launch_dir == "/home/u");
}

TEST_CASE("version 7 gives a version 6 database the campaign_changes table, its campaigns kept") {
  TempDir dir;
  const std::string path = dir.file("sweep.db");
  std::int64_t id = 0;
  {
    store::Store db(path);
    store::CampaignRecord c;
    c.label = "v6";
    c.spec_path = c.spec_text = c.spec_hash = c.executor = "y";
    id = db.create_campaign(c, {});
  }
  {
    SQLite::Database raw(path, SQLite::OPEN_READWRITE);
    raw.exec(kUndoV10);
    raw.exec("DROP TABLE campaign_changes; DROP TABLE campaign_settings; UPDATE schema_info SET version = 6");
  }
  store::Store db(path);
  const auto old = db.find_campaign("v6");
  REQUIRE(old);
  CHECK(old->id == id);
  CHECK(db.changes(old->id).empty());
  db.record_change(store::ChangeRecord{0, old->id, "t", "me", "h", "extend", "1 repetition added", ""});
  CHECK(db.changes(old->id).size() == 1);
  SQLite::Database raw(path, SQLite::OPEN_READONLY);
  CHECK(raw.execAndGet("SELECT version FROM schema_info").getInt() == store::kSchemaVersion);
}

TEST_CASE("version 8: metric_values and every values view gain the run's wall time elapsed_s") {
  TempDir dir;
  const auto path = dir.file("sweep.db");
  {
    store::Store db(path);
    store::CampaignRecord c;
    c.label = "old";
    c.experiment = c.spec_path = c.spec_text = c.spec_hash = c.executor = c.started_at = c.run_root = "x";
    c.repetitions = 1;
    db.create_campaign(c, {store::PointRecord{"p1", 0, {{"elapsed_s", "3", "int", false}}}});
  }
  {  // back to version 7, as a sweep before elapsed_s left it: metric_values of version 4
    SQLite::Database raw(path, SQLite::OPEN_READWRITE);
    raw.exec(kUndoV10);
    raw.exec(R"SQL(DROP VIEW metric_values;
CREATE VIEW metric_values AS
SELECT c.label AS campaign, c.experiment AS experiment, r.point_id AS point_id, p.ordinal AS point,
       r.repetition AS repetition, r.attempt AS attempt, r.state AS state, m.name AS metric, m.idx AS idx,
       m.value AS value, m.unit AS unit, m.better AS better, r.id AS run_id
FROM metrics m JOIN runs r ON r.id = m.run_id AND r.attempt = m.attempt JOIN campaigns c ON c.id = r.campaign_id
JOIN points p ON p.campaign_id = r.campaign_id AND p.point_id = r.point_id;
DROP TABLE campaign_settings;
UPDATE schema_info SET version = 7)SQL");
  }
  { store::Store db(path); }
  SQLite::Database raw(path, SQLite::OPEN_READONLY);
  CHECK(raw.execAndGet("SELECT version FROM schema_info").getInt() == store::kSchemaVersion);
  auto columns = [&](const std::string& view) {
    std::vector<std::string> out;
    SQLite::Statement q(raw, "SELECT name FROM pragma_table_info('" + view + "') ORDER BY cid");
    while (q.executeStep()) out.push_back(q.getColumn(0).getString());
    return out;
  };
  CHECK(columns("metric_values").back() == "elapsed_s");
  const auto old = columns("values:old");
  CHECK(std::vector<std::string>(old.end() - 2, old.end()) == std::vector<std::string>{"elapsed_s", "param_elapsed_s"});
}

TEST_CASE("version 9 records the settings a campaign started with, and an older campaign has none") {
  TempDir dir;
  const auto path = dir.file("sweep.db");
  store::CampaignRecord c;
  c.experiment = c.spec_path = c.spec_text = c.spec_hash = c.executor = c.started_at = c.run_root = "x";
  old_database(path, c, "DROP TABLE campaign_settings; UPDATE schema_info SET version = 8");  // before the settings
  store::Store db(path);
  const auto old = db.find_campaign("old");
  REQUIRE(old);
  CHECK(db.campaign_settings(old->id).empty());
  c.label = "new";
  const store::CampaignSettings settings{{"site.path", "/etc/sweep/site.yaml"}, {"site.text", "format: 1\n"},
                                         {"templates", "/opt/sweep/templates"}};
  const auto id = db.create_campaign(c, {}, settings);
  CHECK(db.campaign_settings(id) == settings);
  SQLite::Database raw(path, SQLite::OPEN_READWRITE);
  CHECK(raw.execAndGet("SELECT version FROM schema_info").getInt() == store::kSchemaVersion);
  raw.exec("PRAGMA foreign_keys = ON; DELETE FROM campaigns WHERE label = 'new'");  // its settings go with it
  CHECK(raw.execAndGet("SELECT count(*) FROM campaign_settings").getInt() == 0);
}

TEST_CASE("version 10 records a campaign's system and origin, older campaigns read as local, one row per origin") {
  TempDir dir;
  const auto path = dir.file("sweep.db");
  store::CampaignRecord c;
  c.experiment = c.spec_path = c.spec_text = c.spec_hash = c.executor = c.started_at = c.run_root = "x";
  old_database(path, c, "UPDATE schema_info SET version = 9");  // before systems
  store::Store db(path);
  const auto old = db.find_campaign("old");
  REQUIRE(old);
  CHECK(old->system.empty());
  CHECK(old->origin_database_id.empty());
  c.label = "new@lab";
  c.system = "lab";
  c.origin_database_id = "abcd";
  c.origin_label = "new";
  db.create_campaign(c, {});
  const auto imported = db.find_campaign("new@lab");
  REQUIRE(imported);
  CHECK(imported->system == "lab");
  CHECK(imported->origin_database_id == "abcd");
  CHECK(imported->origin_label == "new");
  c.label = "new@lab-2";
  CHECK_THROWS(db.create_campaign(c, {}));  // the same origin twice
  SQLite::Database raw(path, SQLite::OPEN_READONLY);
  CHECK(raw.execAndGet("SELECT version FROM schema_info").getInt() == 10);
  CHECK(raw.tableExists("campaign_forecasts"));
}
