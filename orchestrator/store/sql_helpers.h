#pragma once
// Helpers shared by the store's translation units. Internal to store/.
#include <fmt/core.h>

#include <SQLiteCpp/Column.h>
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Exception.h>
#include <SQLiteCpp/Statement.h>
#include <sqlite3.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/records.h"
#include "util/error.h"
#include "util/secrets.h"

namespace sweep::store::detail {

/// Runs `body`, turning any SQLite failure into an Error naming the file and the operation: Error(io)
/// when the disk is full or failed (the transaction was rolled back; free space and resume), otherwise
/// Error(database).
template <typename Body>
auto guarded(const std::string& path, std::string_view what, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const SQLite::Exception& e) {
    const int primary = e.getErrorCode() & 0xff;
    if (primary == SQLITE_FULL || primary == SQLITE_IOERR)
      throw Error(ErrorKind::io, fmt::format("{}: cannot {}: {} (nothing of it was written; free space on that "
                                             "disk, then resume)",
                                             path, what, e.what()));
    throw Error(ErrorKind::database, fmt::format("{}: cannot {}: {}", path, what, e.what()));
  }
}

inline std::optional<int> optional_int(const SQLite::Column& c) {
  return c.isNull() ? std::nullopt : std::optional<int>(c.getInt());
}
inline std::optional<double> optional_double(const SQLite::Column& c) {
  return c.isNull() ? std::nullopt : std::optional<double>(c.getDouble());
}
template <typename T>
void bind_optional(SQLite::Statement& q, int index, const std::optional<T>& v) {
  if (v) q.bind(index, *v);
  else q.bind(index);
}

/// Inserts `rows` into campaign_forecasts for the campaign, inside the caller's transaction (store/forecasts.cpp).
void insert_forecasts(SQLite::Database& db, std::int64_t campaign_id, const std::vector<ForecastRecord>& rows);
/// The columns of a campaigns row, in read_campaign's order.
inline constexpr const char* kCampaignColumns =
    "id, label, experiment, spec_path, spec_text, spec_hash, overrides, executor, repetitions, started_at, "
    "coalesce(ended_at, ''), host, user, tool_version, git_commit, git_dirty, run_root, experiment_dir, launch_dir, system, origin_database_id, origin_label";

inline CampaignRecord read_campaign(SQLite::Statement& q) {
  CampaignRecord c;
  c.id = q.getColumn(0).getInt64();
  c.label = q.getColumn(1).getString();
  c.experiment = q.getColumn(2).getString();
  c.spec_path = q.getColumn(3).getString();
  c.spec_text = q.getColumn(4).getString();
  c.spec_hash = q.getColumn(5).getString();
  c.overrides = q.getColumn(6).getString();
  c.executor = q.getColumn(7).getString();
  c.repetitions = q.getColumn(8).getInt();
  c.started_at = q.getColumn(9).getString();
  c.ended_at = q.getColumn(10).getString();
  c.host = q.getColumn(11).getString();
  c.user = q.getColumn(12).getString();
  c.tool_version = q.getColumn(13).getString();
  c.git_commit = q.getColumn(14).getString();
  if (!q.getColumn(15).isNull()) c.git_dirty = q.getColumn(15).getInt() != 0;
  c.run_root = q.getColumn(16).getString();
  c.experiment_dir = q.getColumn(17).getString();
  c.launch_dir = q.getColumn(18).getString();
  c.system = q.getColumn(19).getString();
  c.origin_database_id = q.getColumn(20).getString();
  c.origin_label = q.getColumn(21).getString();
  return c;
}

inline constexpr const char* kRunColumns =
    "r.id, r.campaign_id, r.point_id, r.repetition, r.attempt, r.state, r.exit_code, r.signal, r.failure_class, "
    "r.failure_reason, r.started_at, r.ended_at, r.elapsed_s, r.run_dir";

inline RunRecord read_run(SQLite::Statement& q) {
  RunRecord r;
  r.id = q.getColumn(0).getInt64();
  r.campaign_id = q.getColumn(1).getInt64();
  r.point_id = q.getColumn(2).getString();
  r.repetition = q.getColumn(3).getInt();
  r.attempt = q.getColumn(4).getInt();
  r.state = state_from_name(q.getColumn(5).getString());
  r.exit_code = optional_int(q.getColumn(6));
  r.signal = optional_int(q.getColumn(7));
  r.failure_class = q.getColumn(8).getString();
  r.failure_reason = q.getColumn(9).getString();
  r.started_at = q.getColumn(10).getString();
  r.ended_at = q.getColumn(11).getString();
  r.elapsed_s = optional_double(q.getColumn(12));
  r.run_dir = q.getColumn(13).getString();
  return r;
}

/// Inserts (or replaces) an attempt's metrics, inside the caller's transaction. (store/attempts.cpp)
void insert_metrics(SQLite::Database& db, std::int64_t run_id, int attempt, const std::vector<MetricRecord>& metrics);
/// Inserts (or replaces) an attempt's provenance, inside the caller's transaction. (store/attempts.cpp)
void insert_provenance(SQLite::Database& db, std::int64_t run_id, int attempt, const KeyValues& provenance);
/// Masks the secret values `masker` knows in what an attempt records: its failure reason, its metrics'
/// names and units (a workload may print a secret into a metric's name) and its provenance's keys and
/// values (`matches.<metric>` holds a metric's name). Names that mask alike become one, the last kept, as
/// INSERT OR REPLACE keeps it. (store/attempts.cpp)
void mask_recorded(const Masker& masker, std::string& failure_reason, std::vector<MetricRecord>& metrics,
                   KeyValues& provenance);

/// Begins a new attempt of a run inside the caller's transaction: the run becomes running with
/// `run_dir`, and an attempts row is added. Returns the new attempt number. (store/attempts.cpp)
int start_attempt(SQLite::Database& db, const std::string& path, std::int64_t run_id, const std::string& run_dir,
                  const std::string& started_at);

}  // namespace sweep::store::detail
