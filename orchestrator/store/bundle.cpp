// Bundles (docs/forecasts.md, "Systems and bundles"): one campaign written into a new SQLite database of
// sweep's schema with a bundle_info table, and such a file taken into a database with new ids. Each
// opens a connection of its own to the Store's file, which the Store checked and migrated when it opened.
#include "store/bundle.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <unordered_map>

#include "store/bundle_label.h"
#include "store/schema.h"
#include "store/sql_helpers.h"
#include "store/store.h"
#include "store/views.h"
#include "util/error.h"
#include "util/names.h"
#include "util/scratch_directory.h"
#include "util/strings.h"

namespace sweep::store {
using namespace detail;
namespace fs = std::filesystem;
namespace {

/// The rows of one campaign in one table: its columns, and which rows are the campaign's (?1 is the
/// campaign id). `own_id`: the table's integer key, which an import leaves to this database to choose.
struct CampaignRows {
  const char* table;
  const char* columns;
  const char* where;
  bool own_id;
};

constexpr const char* kByCampaign = "campaign_id = ?1";
constexpr const char* kByRun = "run_id IN (SELECT id FROM runs WHERE campaign_id = ?1)";

/// Every row a bundle holds, parents before children. Submissions are left out: their job ids mean
/// something only to the scheduler that ran them.
constexpr CampaignRows kCampaignTables[] = {
    {"campaigns",
     "id, label, experiment, spec_path, spec_text, spec_hash, overrides, executor, repetitions, started_at, ended_at, "
     "host, user, tool_version, git_commit, git_dirty, run_root, experiment_dir, launch_dir, system, "
     "origin_database_id, origin_label",
     "id = ?1", true},
    {"campaign_settings", "campaign_id, name, value", kByCampaign, false},
    {"campaign_changes", "id, campaign_id, at, user, host, kind, what, rules_hash", kByCampaign, true},
    {"campaign_forecasts", "campaign_id, point_id, runs, nodes, gpus, expected_s, upper_s, source, energy_j", kByCampaign,
     false},
    {"points", "campaign_id, point_id, ordinal", kByCampaign, false},
    {"point_params", "campaign_id, point_id, name, value, type, derived, position", kByCampaign, false},
    {"runs",
     "id, campaign_id, point_id, repetition, attempt, state, exit_code, signal, failure_class, failure_reason, "
     "started_at, ended_at, elapsed_s, run_dir",
     kByCampaign, true},
    {"attempts",
     "run_id, attempt, state, exit_code, signal, failure_class, failure_reason, started_at, ended_at, elapsed_s, run_dir",
     kByRun, false},
    {"metrics", "run_id, attempt, name, idx, value, unit, better", kByRun, false},
    {"run_provenance", "run_id, attempt, key, value", kByRun, false},
};

constexpr const char* kBundleInfo = "CREATE TABLE bundle_info (key TEXT PRIMARY KEY, value TEXT NOT NULL)";

/// How an import maps the bundle's ids onto this database's, and the values it sets instead of the bundle's.
struct Remap {
  std::string shown;  // the bundle's name in messages
  std::int64_t campaign_id = 0;
  std::unordered_map<std::int64_t, std::int64_t> runs;  // bundle run id -> run id here
  std::map<std::string, std::string> campaign_values;   // campaigns column -> value here
};

void bind_value(SQLite::Statement& q, int index, const SQLite::Column& c) {
  switch (c.getType()) {
    case SQLITE_INTEGER: return q.bind(index, c.getInt64());
    case SQLITE_FLOAT: return q.bind(index, c.getDouble());
    case SQLITE_TEXT: return q.bind(index, c.getString());
    case SQLITE_BLOB: return q.bind(index, c.getBlob(), c.getBytes());
    default: return q.bind(index);
  }
}

/// The most bytes one text value of a bundle may hold (an experiment's text is limited to 16 MiB).
constexpr int kMaxBundleTextBytes = 16 << 20;

/// What is wrong with a bundle's value in `table`.`name` as a value sweep's schema stores, or "": no
/// blobs, no infinities or NaN, a metric's value a number, no text over kMaxBundleTextBytes.
std::string value_problem(std::string_view table, const std::string& name, const SQLite::Column& c) {
  switch (c.getType()) {
    case SQLITE_BLOB: return "a blob";
    case SQLITE_FLOAT: return std::isfinite(c.getDouble()) ? "" : fmt::format("the non-finite number {}", c.getDouble());
    case SQLITE_TEXT:
      if (table == "metrics" && name == "value") return fmt::format("the text \"{}\" (not a number)", c.getString().substr(0, 40));
      return c.getBytes() > kMaxBundleTextBytes ? fmt::format("{} bytes of text", c.getBytes()) : "";
    default: return "";
  }
}

/// Binds column `name` of `from`'s current row as the import maps it; false when the column is left out.
bool bind_mapped(SQLite::Statement& q, int index, const std::string& name, const SQLite::Column& c, const CampaignRows& t,
                 const Remap& remap) {
  if (name == "id" && t.own_id) return false;
  if (const std::string problem = value_problem(t.table, name, c); !problem.empty())
    throw Error(ErrorKind::database, fmt::format("{} is damaged: a row of {} holds {} in {}; nothing was imported",
                                                 remap.shown, t.table, problem, name));
  if (name == "campaign_id") q.bind(index, remap.campaign_id);
  else if (name == "run_id") {
    const auto it = remap.runs.find(c.getInt64());
    if (it == remap.runs.end()) throw Error(ErrorKind::database, fmt::format("{} names run {}, which the bundle does not hold", t.table, c.getInt64()));
    q.bind(index, it->second);
  } else if (const auto v = remap.campaign_values.find(name); std::string_view(t.table) == "campaigns" && v != remap.campaign_values.end())
    q.bind(index, v->second);
  else
    bind_value(q, index, c);
  return true;
}

/// Copies the campaign's rows of table `t` from `from` to `to`, the same ids without `remap`, else mapped
/// (and each new run's id recorded in it). Returns the rows copied.
std::int64_t copy_rows(SQLite::Database& from, SQLite::Database& to, const CampaignRows& t, std::int64_t campaign_id,
                       Remap* remap) {
  std::vector<std::string> columns = split(t.columns, ',');
  for (auto& c : columns) c = std::string(trim(c));
  std::vector<std::string> written;
  for (const auto& c : columns)
    if (!(remap && t.own_id && c == "id")) written.push_back(c);
  std::string placeholders;
  for (std::size_t i = 0; i < written.size(); ++i) placeholders += i ? ", ?" : "?";
  SQLite::Statement read(from, fmt::format("SELECT {} FROM {} WHERE {}", t.columns, t.table, t.where));
  read.bind(1, campaign_id);
  SQLite::Statement write(to, fmt::format("INSERT INTO {} ({}) VALUES ({})", t.table, fmt::join(written, ", "), placeholders));
  std::int64_t rows = 0;
  while (read.executeStep()) {
    int index = 1;
    for (int i = 0; i < static_cast<int>(columns.size()); ++i) {
      if (!remap) bind_value(write, index++, read.getColumn(i));
      else if (bind_mapped(write, index, columns[i], read.getColumn(i), t, *remap)) ++index;
    }
    write.exec();
    write.reset();
    if (remap && std::string_view(t.table) == "runs") remap->runs.emplace(read.getColumn(0).getInt64(), to.getLastInsertRowid());
    if (remap && std::string_view(t.table) == "campaigns") remap->campaign_id = to.getLastInsertRowid();
    ++rows;
  }
  return rows;
}

/// Turns on SQLite's defenses for a file sweep did not write: no changes to the schema's text, no
/// functions with side effects from the schema, no triggers, no views.
void defend(SQLite::Database& db) {
  sqlite3* h = db.getHandle();
  for (const auto& [option, on] : {std::pair{SQLITE_DBCONFIG_DEFENSIVE, 1}, {SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0},
                                   {SQLITE_DBCONFIG_ENABLE_TRIGGER, 0}, {SQLITE_DBCONFIG_ENABLE_VIEW, 0}})
    sqlite3_db_config(h, option, on, nullptr);
  db.exec("PRAGMA trusted_schema = OFF");
}

std::string info_value(SQLite::Database& db, const std::string& key) {
  SQLite::Statement q(db, "SELECT value FROM bundle_info WHERE key = ?");
  q.bind(1, key);
  return q.executeStep() ? q.getColumn(0).getString() : std::string();
}

bool is_hex_id(const std::string& id) {
  return id.size() == 32 && id.find_first_not_of("0123456789abcdef") == std::string::npos;
}

int integer_or(const std::string& text, int otherwise) {
  try {
    std::size_t used = 0;
    const int v = std::stoi(text, &used);
    return used == text.size() ? v : otherwise;
  } catch (const std::exception&) {
    return otherwise;
  }
}

/// The bundle's campaign, read from the private copy at `copy` once it was checked and brought to this
/// schema. `shown` names the file in messages.
struct OpenedBundle {
  CampaignRecord campaign;
  std::string source_database_id;
  int schema = 0;
};

void require_table(SQLite::Database& db, const std::string& shown, const char* table) {
  SQLite::Statement q(db, "SELECT type FROM sqlite_master WHERE name = ?");
  q.bind(1, table);
  if (!q.executeStep() || q.getColumn(0).getString() != "table")
    throw Error(ErrorKind::database, fmt::format("{} is not a sweep bundle: it has no table {}", shown, table));
}

/// SQLite's declared types, compared as SQLite does: without regard to case.
bool same_type(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](char x, char y) { return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y)); });
}

/// Refuses a bundle whose tables are not sweep's where the import reads them: each column it copies must
/// be an ordinary column (not generated, not hidden) of the type this database declares for it. The
/// rows are then read as data under sweep's schema, never computed by the bundle's.
void check_columns(SQLite::Database& from, SQLite::Database& to, const std::string& shown) {
  constexpr const char* kColumn = "SELECT type, hidden FROM pragma_table_xinfo(?1) WHERE name = ?2";
  SQLite::Statement theirs(from, kColumn), ours(to, kColumn);
  for (const CampaignRows& t : kCampaignTables)
    for (const std::string& name : split(t.columns, ',')) {
      const std::string column(trim(name));
      for (auto* q : {&theirs, &ours}) {
        q->reset();
        q->bind(1, t.table);
        q->bind(2, column);
      }
      if (!ours.executeStep()) throw Error(ErrorKind::internal, fmt::format("this database has no column {}.{}", t.table, column));
      const std::string type = ours.getColumn(0).getString();
      std::string problem;
      if (!theirs.executeStep()) problem = "missing";
      else if (theirs.getColumn(1).getInt() != 0) problem = "a generated or hidden column";
      else if (!same_type(theirs.getColumn(0).getString(), type))
        problem = fmt::format("of type \"{}\"", theirs.getColumn(0).getString());
      if (!problem.empty())
        throw Error(ErrorKind::database, fmt::format("{} is not a sweep bundle: its column {}.{} is {}, where sweep's schema "
                                                     "has an ordinary column of type {}; nothing was imported",
                                                     shown, t.table, column, problem, type));
    }
}

/// Checks the format and schema versions (a newer one refused naming both), migrates an older schema
/// in the copy, and reads its one campaign.
OpenedBundle check_bundle(const std::string& copy, const std::string& shown) {
  OpenedBundle b;
  {
    SQLite::Database db(copy, SQLite::OPEN_READWRITE);
    defend(db);
    const std::string check = db.execAndGet("PRAGMA quick_check").getString();
    if (check != "ok") throw Error(ErrorKind::database, fmt::format("{} is damaged: SQLite's check says {}", shown, check));
    require_table(db, shown, "bundle_info");
    require_table(db, shown, "schema_info");
    const int format = integer_or(info_value(db, "format"), 0);
    if (format < 1) throw Error(ErrorKind::database, fmt::format("{} is not a sweep bundle: bundle_info has no valid format", shown));
    if (format > kBundleFormat)
      throw Error(ErrorKind::database, fmt::format("{} is a bundle of format {}, newer than this sweep reads (format {}); "
                                                   "import it with a newer sweep",
                                                   shown, format, kBundleFormat));
    b.schema = db.execAndGet("SELECT version FROM schema_info").getInt();
    if (b.schema > kSchemaVersion)
      throw Error(ErrorKind::database, fmt::format("{} holds a database of schema version {}, newer than this sweep "
                                                   "supports (schema version {}); import it with a newer sweep",
                                                   shown, b.schema, kSchemaVersion));
    if (b.schema < kSchemaVersion) prepare_schema(db, shown, false);  // the private copy, never the file given
    b.source_database_id = info_value(db, "source_database_id");
  }
  SQLite::Database db(copy, SQLite::OPEN_READONLY);
  defend(db);
  for (const CampaignRows& t : kCampaignTables) require_table(db, shown, t.table);
  if (const int n = db.execAndGet("SELECT count(*) FROM campaigns").getInt(); n != 1)
    throw Error(ErrorKind::database, fmt::format("{} holds {} campaigns; a bundle holds one", shown, n));
  SQLite::Statement q(db, fmt::format("SELECT {} FROM campaigns", kCampaignColumns));
  q.executeStep();
  b.campaign = read_campaign(q);
  return b;
}

/// Refuses a bundle one of whose attempts holds more metric values, distinct names or a longer name than
/// ingest lets a run record (`limits`), naming the first such run. One pass over the copy's metrics.
void check_run_limits(SQLite::Database& db, const std::string& shown, const BundleLimits& limits) {
  SQLite::Statement q(db, "SELECT r.repetition, m.attempt, count(*), count(DISTINCT m.name), max(length(CAST(m.name AS BLOB))), "
                          "substr(r.point_id, 1, 64) FROM metrics m JOIN runs r ON r.id = m.run_id "
                          "GROUP BY m.run_id, m.attempt HAVING count(*) > ?1 OR count(DISTINCT m.name) > ?2 OR "
                          "max(length(CAST(m.name AS BLOB))) > ?3 LIMIT 1");
  q.bind(1, static_cast<std::int64_t>(limits.values_per_run));
  q.bind(2, static_cast<std::int64_t>(limits.metric_names_per_run));
  q.bind(3, static_cast<std::int64_t>(limits.metric_name_bytes));
  if (!q.executeStep()) return;
  throw Error(ErrorKind::database,
              fmt::format("{} holds a run (point {}, repetition {}, attempt {}) with {} metric values of {} names, the longest "
                          "{} bytes; a run of this sweep records at most {} values of {} names of {} bytes each; nothing was "
                          "imported",
                          shown, q.getColumn(5).getString(), q.getColumn(0).getInt64(), q.getColumn(1).getInt64(), q.getColumn(2).getInt64(),
                          q.getColumn(3).getInt64(), q.getColumn(4).getInt64(), limits.values_per_run,
                          limits.metric_names_per_run, limits.metric_name_bytes));
}

/// Where the campaign first came from: its recorded origin when the bundle's database had imported it
/// itself, else the bundle's source database and its label there. Refused unless both are well formed.
std::pair<std::string, std::string> origin_of(const OpenedBundle& b, const std::string& shown) {
  const CampaignRecord& c = b.campaign;
  std::pair<std::string, std::string> origin{c.origin_database_id, c.origin_label};
  if (origin.first.empty()) origin = {b.source_database_id, c.label};
  if (!is_hex_id(origin.first))
    throw Error(ErrorKind::database, fmt::format("{} is damaged: its origin database id \"{}\" is not 32 hex digits", shown,
                                                 origin.first));
  try {
    require_safe_name(origin.second, "its campaign label");
  } catch (const Error& e) {
    throw Error(ErrorKind::database, fmt::format("{} is damaged: {}", shown, e.what()));
  }
  return origin;
}

/// Refuses, before anything is copied, a file that is not an SQLite database or is larger than the
/// database its header describes (a sparse file of gigabytes around a small bundle): the copy an import
/// makes is then never larger than the database itself. An empty file passes (SQLite reads it as empty).
void check_file_size(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::array<unsigned char, 100> h{};
  in.read(reinterpret_cast<char*>(h.data()), h.size());
  const std::streamsize got = in.gcount();
  if (got == 0) return;
  constexpr std::string_view kMagic{"SQLite format 3\0", 16};
  if (got < 100 || std::string_view(reinterpret_cast<const char*>(h.data()), 16) != kMagic)
    throw Error(ErrorKind::database, fmt::format("{} is not a sweep bundle: not an SQLite database", path));
  const auto be32 = [&](std::size_t at) {
    return std::uint64_t{h[at]} << 24 | std::uint64_t{h[at + 1]} << 16 | std::uint64_t{h[at + 2]} << 8 | h[at + 3];
  };
  const std::uint64_t page = (std::uint64_t{h[16]} << 8 | h[17]) == 1 ? 65536 : (std::uint64_t{h[16]} << 8 | h[17]);
  if (be32(92) != be32(24)) return;  // the header's page count is not valid (SQLite's rule): nothing to compare
  std::error_code ec;
  const std::uint64_t size = fs::file_size(path, ec);
  if (!ec && size > page * be32(28))
    throw Error(ErrorKind::database, fmt::format("{} is {} bytes, but the database its header describes is {} bytes: not a "
                                                 "bundle sweep wrote; nothing was copied or imported",
                                                 path, size, page * be32(28)));
}

}  // namespace

void export_bundle(const Store& db, std::string_view label, const BundleFacts& facts, const std::string& bundle_path) {
  const auto campaign = db.find_campaign(label);
  if (!campaign) throw Error(ErrorKind::not_found, fmt::format("no campaign labelled \"{}\" in {}", label, db.path()));
  const std::string id = db.database_id();
  guarded(bundle_path, "write the bundle", [&] {
    SQLite::Database source(db.path(), SQLite::OPEN_READONLY);
    source.setBusyTimeout(30000);
    SQLite::Database out(bundle_path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    prepare_schema(out, bundle_path, false);
    SQLite::Transaction read(source, SQLite::TransactionBehavior::DEFERRED);  // one snapshot of the campaign
    SQLite::Transaction write(out, SQLite::TransactionBehavior::IMMEDIATE);
    for (const CampaignRows& t : kCampaignTables) copy_rows(source, out, t, campaign->id, nullptr);
    create_campaign_view(out, campaign->id, campaign->label);
    out.exec(kBundleInfo);
    KeyValues info{{"format", std::to_string(kBundleFormat)}, {"source_database_id", id}, {"system", campaign->system},
                   {"exported_at", facts.exported_at}, {"sweep_version", facts.sweep_version}};
    for (const auto& [key, value] : facts.host) info.emplace_back("host." + key, value);
    SQLite::Statement q(out, "INSERT INTO bundle_info (key, value) VALUES (?, ?)");
    for (const auto& [key, value] : info) {
      q.bind(1, key);
      q.bind(2, value);
      q.exec();
      q.reset();
    }
    write.commit();
    read.commit();
  });
}

ImportResult import_bundle(Store& db, const std::string& bundle_path, const BundleLimits& limits) {
  // The copy and SQLite's files beside it; a signal, or the next import after a SIGKILL, removes them.
  const ScratchDirectory dir({}, "sweep-import-", {"bundle.sqlite", "bundle.sqlite-journal", "bundle.sqlite-wal", "bundle.sqlite-shm"});
  const std::string copy = (dir.path() / "bundle.sqlite").string();
  std::error_code ec;
  if (!fs::is_regular_file(bundle_path, ec))
    throw Error(ErrorKind::not_found, fmt::format("{} is not a file sweep can import (no such regular file)", bundle_path));
  check_file_size(bundle_path);
  fs::copy_file(bundle_path, copy, ec);
  if (ec) throw Error(ErrorKind::io, fmt::format("cannot copy {} to import it: {}", bundle_path, ec.message()));
  OpenedBundle b;
  try {
    b = check_bundle(copy, bundle_path);
  } catch (const SQLite::Exception& e) {
    throw Error(ErrorKind::database, fmt::format("{} is not a sweep bundle, or is damaged: {}", bundle_path, e.what()));
  }
  const auto [origin_id, origin_label] = origin_of(b, bundle_path);
  if (origin_id == db.database_id())
    throw Error(ErrorKind::usage, fmt::format("{} holds campaign \"{}\" of this very database; nothing to import", bundle_path,
                                              origin_label));
  ImportResult r{"", false, b.campaign.system, origin_id, origin_label, 0, b.schema, b.schema < kSchemaVersion};
  return guarded(db.path(), "import " + bundle_path, [&] {
    SQLite::Database from(copy, SQLite::OPEN_READONLY);
    defend(from);
    SQLite::Database to(db.path(), SQLite::OPEN_READWRITE);
    to.setBusyTimeout(30000);
    to.exec("PRAGMA foreign_keys = ON");
    check_columns(from, to, bundle_path);
    check_run_limits(from, bundle_path, limits);
    SQLite::Transaction tx(to, SQLite::TransactionBehavior::IMMEDIATE);
    SQLite::Statement known(to, "SELECT label FROM campaigns WHERE origin_database_id = ? AND origin_label = ?");
    known.bind(1, origin_id);
    known.bind(2, origin_label);
    if (known.executeStep()) {
      r.label = known.getColumn(0).getString();
      r.already_imported = true;
      return r;  // the transaction rolls back: nothing was written
    }
    SQLite::Statement taken(to, "SELECT count(*) FROM campaigns WHERE label = ?");
    r.label = imported_label(origin_label, b.campaign.system, origin_id, [&](const std::string& label) {
      taken.reset();
      taken.bind(1, label);
      taken.executeStep();
      return taken.getColumn(0).getInt() > 0;
    });
    Remap remap;
    remap.shown = bundle_path;
    remap.campaign_values = {{"label", r.label}, {"origin_database_id", origin_id}, {"origin_label", origin_label}};
    for (const CampaignRows& t : kCampaignTables) {
      const std::int64_t rows = copy_rows(from, to, t, b.campaign.id, &remap);
      if (std::string_view(t.table) == "runs") r.runs = rows;
    }
    create_campaign_view(to, remap.campaign_id, r.label);
    tx.commit();
    return r;
  });
}

}  // namespace sweep::store
