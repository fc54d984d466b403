#include "store/schema.h"

#include <fmt/core.h>

#include <iterator>

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include "store/views.h"
#include "util/error.h"

namespace sweep::store {
namespace {

// Version 1 of the schema. docs/database.md describes every table.
constexpr const char* kSchemaV1 = R"SQL(
CREATE TABLE schema_info (version INTEGER NOT NULL);
CREATE TABLE campaigns (
  id            INTEGER PRIMARY KEY,
  label         TEXT NOT NULL UNIQUE,
  experiment    TEXT NOT NULL,
  spec_path     TEXT NOT NULL,
  spec_text     TEXT NOT NULL,
  spec_hash     TEXT NOT NULL,
  overrides     TEXT NOT NULL DEFAULT '',
  executor      TEXT NOT NULL,
  repetitions   INTEGER NOT NULL,
  started_at    TEXT NOT NULL,
  ended_at      TEXT,
  host          TEXT NOT NULL DEFAULT '',
  user          TEXT NOT NULL DEFAULT '',
  tool_version  TEXT NOT NULL DEFAULT '',
  git_commit    TEXT NOT NULL DEFAULT '',
  git_dirty     INTEGER,
  run_root      TEXT NOT NULL
);
CREATE TABLE points (
  campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  point_id    TEXT NOT NULL,
  ordinal     INTEGER NOT NULL,
  PRIMARY KEY (campaign_id, point_id)
);
CREATE TABLE point_params (
  campaign_id INTEGER NOT NULL,
  point_id    TEXT NOT NULL,
  name        TEXT NOT NULL,
  value       TEXT NOT NULL,
  type        TEXT NOT NULL CHECK (type IN ('bool', 'int', 'float', 'string')),
  derived     INTEGER NOT NULL DEFAULT 0,
  position    INTEGER NOT NULL,
  PRIMARY KEY (campaign_id, point_id, name),
  FOREIGN KEY (campaign_id, point_id) REFERENCES points(campaign_id, point_id) ON DELETE CASCADE
);
CREATE TABLE runs (
  id             INTEGER PRIMARY KEY,
  campaign_id    INTEGER NOT NULL,
  point_id       TEXT NOT NULL,
  repetition     INTEGER NOT NULL,
  attempt        INTEGER NOT NULL DEFAULT 0,
  state          TEXT NOT NULL CHECK (state IN ('pending', 'running', 'succeeded', 'failed')),
  exit_code      INTEGER,
  signal         INTEGER,
  failure_class  TEXT NOT NULL DEFAULT '',
  failure_reason TEXT NOT NULL DEFAULT '',
  started_at     TEXT NOT NULL DEFAULT '',
  ended_at       TEXT NOT NULL DEFAULT '',
  elapsed_s      REAL,
  run_dir        TEXT NOT NULL DEFAULT '',
  UNIQUE (campaign_id, point_id, repetition),
  FOREIGN KEY (campaign_id, point_id) REFERENCES points(campaign_id, point_id) ON DELETE CASCADE
);
CREATE TABLE attempts (
  run_id         INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  attempt        INTEGER NOT NULL,
  state          TEXT NOT NULL,
  exit_code      INTEGER,
  signal         INTEGER,
  failure_class  TEXT NOT NULL DEFAULT '',
  failure_reason TEXT NOT NULL DEFAULT '',
  started_at     TEXT NOT NULL,
  ended_at       TEXT NOT NULL DEFAULT '',
  elapsed_s      REAL,
  run_dir        TEXT NOT NULL,
  PRIMARY KEY (run_id, attempt)
);
CREATE TABLE metrics (
  run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  name    TEXT NOT NULL,
  idx     INTEGER NOT NULL,
  value   REAL NOT NULL,
  unit    TEXT NOT NULL DEFAULT '',
  better  TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (run_id, attempt, name, idx)
);
CREATE TABLE run_provenance (
  run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  key     TEXT NOT NULL,
  value   TEXT NOT NULL,
  PRIMARY KEY (run_id, attempt, key)
);
CREATE INDEX runs_by_state ON runs (campaign_id, state);
CREATE INDEX metrics_by_name ON metrics (name);
INSERT INTO schema_info (version) VALUES (1);
)SQL";

/// Version 2: scheduler submissions (docs/database.md). A submission is one sbatch call (one job
/// array); each of its tasks is one attempt of one run, keyed by the array task id it was given.
constexpr const char* kSubmissionsV2 = R"SQL(
CREATE TABLE submissions (
  id           INTEGER PRIMARY KEY,
  campaign_id  INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  state        TEXT NOT NULL CHECK (state IN ('submitting', 'submitted', 'failed')),
  job_id       TEXT NOT NULL DEFAULT '',
  dir          TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  submitted_at TEXT NOT NULL DEFAULT '',
  error        TEXT NOT NULL DEFAULT ''
);
CREATE TABLE submission_tasks (
  submission_id INTEGER NOT NULL REFERENCES submissions(id) ON DELETE CASCADE,
  task          INTEGER NOT NULL,
  run_id        INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  attempt       INTEGER NOT NULL,
  PRIMARY KEY (submission_id, task)
);
CREATE INDEX submissions_by_campaign ON submissions (campaign_id, state);
)SQL";

/// Version 3: named baselines (sweep baseline set): a name pins one campaign, for comparisons.
constexpr const char* kBaselinesV3 = R"SQL(
CREATE TABLE baselines (
  name        TEXT PRIMARY KEY,
  campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  set_at      TEXT NOT NULL
);
)SQL";

/// Version 5: the database's identity, a random id that the marker of each run root names
/// (runner/run_root.h), so that a second database on the same results directory never adopts its runs.
constexpr const char* kDatabaseIdV5 = R"SQL(
ALTER TABLE schema_info ADD COLUMN database_id TEXT NOT NULL DEFAULT '';
UPDATE schema_info SET database_id = lower(hex(randomblob(16)));
)SQL";

/// Version 6: where a campaign's runs run (docs/experiment-format.md, "Where a run runs"): the absolute
/// directories of its experiment file and of the shell that started it, recorded when it was created so
/// that a resume or collect from elsewhere runs it in the same place. '' for a campaign from before v6,
/// whose runs ran in their run directories and still do.
constexpr const char* kDirectoriesV6 = R"SQL(
ALTER TABLE campaigns ADD COLUMN experiment_dir TEXT NOT NULL DEFAULT '';
ALTER TABLE campaigns ADD COLUMN launch_dir TEXT NOT NULL DEFAULT '';
)SQL";


/// Version 7: the explicit edits of a stored campaign (docs/database.md, "campaign_changes"): who
/// changed what and when; a reparse's row names the metric rules that produced the values now stored.
constexpr const char* kCampaignChangesV7 = R"SQL(
CREATE TABLE campaign_changes (
  id          INTEGER PRIMARY KEY,
  campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  at          TEXT NOT NULL,
  user        TEXT NOT NULL DEFAULT '',
  host        TEXT NOT NULL DEFAULT '',
  kind        TEXT NOT NULL CHECK (kind IN ('reparse', 'rerun', 'extend')),
  what        TEXT NOT NULL,
  rules_hash  TEXT NOT NULL DEFAULT ''
);
CREATE INDEX campaign_changes_by_campaign ON campaign_changes (campaign_id, id);
)SQL";

/// Version 9: the settings a campaign was started with besides its experiment (docs/database.md,
/// "campaign_settings"): the site file (its path, how it was found, its text with literal secrets
/// masked) and the job-script templates, which a resume or collect uses instead of today's. A campaign
/// from before v9 has no rows, and takes today's as it always did.
constexpr const char* kCampaignSettingsV9 = R"SQL(
CREATE TABLE campaign_settings (
  campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  value       TEXT NOT NULL,
  PRIMARY KEY (campaign_id, name)
);
)SQL";

/// Version 10: campaigns across clusters and their forecasts (docs/forecasts.md). `system`: the site
/// file's `name` when the campaign started ('' without one, and for a campaign from before v10).
/// `origin_database_id` and `origin_label`: for a campaign `sweep import` brought in, the database it
/// was exported from and its label there ('' for a local campaign); one row per origin. A forecast row
/// per point: what `sweep run` expected of it before it started.
constexpr const char* kSystemsV10 = R"SQL(
ALTER TABLE campaigns ADD COLUMN system TEXT NOT NULL DEFAULT '';
ALTER TABLE campaigns ADD COLUMN origin_database_id TEXT NOT NULL DEFAULT '';
ALTER TABLE campaigns ADD COLUMN origin_label TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX campaigns_by_origin ON campaigns (origin_database_id, origin_label) WHERE origin_database_id != '';
CREATE TABLE campaign_forecasts (
  campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  point_id    TEXT NOT NULL,
  runs        INTEGER NOT NULL,
  nodes       INTEGER NOT NULL,
  gpus        INTEGER NOT NULL,
  expected_s  REAL,
  upper_s     REAL,
  source      TEXT NOT NULL,
  energy_j    REAL,
  PRIMARY KEY (campaign_id, point_id)
);
)SQL";

/// Migrations: migrations[i] takes version i+1 to version i+2. Version 4: the views of store/views.h;
/// version 8: metric_values with each run's wall time, elapsed_s (store/views.h).
const char* const kMigrations[] = {kSubmissionsV2, kBaselinesV3, kViewsV4, kDatabaseIdV5, kDirectoriesV6, kCampaignChangesV7,
                                   kRunTimeViews, kCampaignSettingsV9, kSystemsV10};
static_assert(std::size(kMigrations) == kSchemaVersion - 1, "one migration per schema version after 1");

int table_count(SQLite::Database& db) {
  return db.execAndGet("SELECT count(*) FROM sqlite_master WHERE type = 'table'").getInt();
}

int stored_version(SQLite::Database& db, const std::string& path) {
  if (!db.tableExists("schema_info"))
    throw Error(ErrorKind::database,
                fmt::format("{} is an SQLite database but not a sweep results database (no schema_info table)", path));
  return db.execAndGet("SELECT version FROM schema_info").getInt();
}

}  // namespace

void prepare_schema(SQLite::Database& db, const std::string& path, bool wal) {
  db.setBusyTimeout(30000);
  // A foreign database is refused before anything is written to it: the journal mode below is a write.
  if (table_count(db) > 0) stored_version(db, path);
  if (wal) {
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
  } else {
    db.exec("PRAGMA journal_mode = DELETE");
    db.exec("PRAGMA synchronous = FULL");
  }
  db.exec("PRAGMA foreign_keys = ON");

  SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
  if (table_count(db) == 0) {
    db.exec(kSchemaV1);
    for (const char* migration : kMigrations) db.exec(migration);
    db.exec(fmt::format("UPDATE schema_info SET version = {}", kSchemaVersion));
    tx.commit();
    return;
  }
  const int version = stored_version(db, path);
  if (version > kSchemaVersion)
    throw Error(ErrorKind::database,
                fmt::format("{} has schema version {}, newer than this sweep supports ({}); use a newer sweep",
                            path, version, kSchemaVersion));
  if (version < 1)
    throw Error(ErrorKind::database, fmt::format("{} has an invalid schema version {}", path, version));
  for (int v = version; v < kSchemaVersion; ++v) db.exec(kMigrations[v - 1]);
  if (version < 4) create_missing_campaign_views(db);  // the campaigns from before the views
  if (version >= 4 && version < 8) recreate_campaign_views(db);  // elapsed_s may rename a parameter param_elapsed_s
  if (version != kSchemaVersion) db.exec(fmt::format("UPDATE schema_info SET version = {}", kSchemaVersion));
  tx.commit();
}

}  // namespace sweep::store
