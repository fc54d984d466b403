// Store methods for attempts, metrics and provenance.
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <algorithm>

#include "store/sql_helpers.h"
#include "store/store.h"

namespace sweep::store {
using namespace detail;

void detail::insert_metrics(SQLite::Database& db, std::int64_t run_id, int attempt, const std::vector<MetricRecord>& metrics) {
  SQLite::Statement q(db, "INSERT OR REPLACE INTO metrics (run_id, attempt, name, idx, value, unit, better) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?)");
  for (const auto& m : metrics) {
    q.bind(1, run_id);
    q.bind(2, attempt);
    q.bind(3, m.name);
    q.bind(4, m.index);
    q.bind(5, m.value);
    q.bind(6, m.unit);
    q.bind(7, m.better);
    q.exec();
    q.reset();
  }
}

void detail::insert_provenance(SQLite::Database& db, std::int64_t run_id, int attempt, const KeyValues& provenance) {
  SQLite::Statement q(db, "INSERT OR REPLACE INTO run_provenance (run_id, attempt, key, value) VALUES (?, ?, ?, ?)");
  for (const auto& [key, value] : provenance) {
    q.bind(1, run_id);
    q.bind(2, attempt);
    q.bind(3, key);
    q.bind(4, value);
    q.exec();
    q.reset();
  }
}

void detail::mask_recorded(const Masker& masker, std::string& failure_reason, std::vector<MetricRecord>& metrics,
                           KeyValues& provenance) {
  if (masker.empty()) return;
  failure_reason = masker(failure_reason);
  for (MetricRecord& m : metrics) {
    m.name = masker(m.name);
    m.unit = masker(m.unit);
  }
  for (auto& [key, value] : provenance) {
    key = masker(key);
    value = masker(value);
  }
}

namespace {

/// Binds the outcome columns shared by `runs` and `attempts`, starting at parameter `first`.
void bind_outcome(SQLite::Statement& q, int first, const AttemptResult& r) {
  q.bind(first, std::string(state_name(r.state)));
  bind_optional(q, first + 1, r.exit_code);
  bind_optional(q, first + 2, r.signal);
  q.bind(first + 3, r.failure_class);
  q.bind(first + 4, r.failure_reason);
  q.bind(first + 5, r.ended_at);
  bind_optional(q, first + 6, r.elapsed_s);
}

}  // namespace

int detail::start_attempt(SQLite::Database& db, const std::string& path, std::int64_t run_id,
                          const std::string& run_dir, const std::string& started_at) {
  SQLite::Statement update(db,
                           "UPDATE runs SET attempt = attempt + 1, state = 'running', exit_code = NULL, signal = NULL, "
                           "failure_class = '', failure_reason = '', started_at = ?, ended_at = '', elapsed_s = NULL, "
                           "run_dir = ? WHERE id = ? RETURNING attempt");
  update.bind(1, started_at);
  update.bind(2, run_dir);
  update.bind(3, run_id);
  if (!update.executeStep()) throw Error(ErrorKind::database, fmt::format("{}: no run with id {}", path, run_id));
  const int attempt = update.getColumn(0).getInt();
  update.reset();
  SQLite::Statement insert(db, "INSERT INTO attempts (run_id, attempt, state, started_at, run_dir) "
                               "VALUES (?, ?, 'running', ?, ?)");
  insert.bind(1, run_id);
  insert.bind(2, attempt);
  insert.bind(3, started_at);
  insert.bind(4, run_dir);
  insert.exec();
  return attempt;
}

int Store::begin_attempt(std::int64_t run_id, const std::string& run_dir, const std::string& started_at) {
  return guarded(path_, "start a run", [&] {
    SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::IMMEDIATE);
    const int attempt = start_attempt(*db_, path_, run_id, run_dir, started_at);
    tx.commit();
    return attempt;
  });
}

void Store::finish_attempt(std::int64_t run_id, int attempt, const AttemptResult& unmasked) {
  AttemptResult result = unmasked;
  mask_recorded(masker_, result.failure_reason, result.metrics, result.provenance);
  guarded(path_, "record a run's result", [&] {
    SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::IMMEDIATE);
    SQLite::Statement run(*db_,
                          "UPDATE runs SET state = ?, exit_code = ?, signal = ?, failure_class = ?, failure_reason = ?, "
                          "ended_at = ?, elapsed_s = ? WHERE id = ? AND attempt = ?");
    bind_outcome(run, 1, result);
    run.bind(8, run_id);
    run.bind(9, attempt);
    if (run.exec() != 1)
      throw Error(ErrorKind::database,
                  fmt::format("{}: attempt {} is not the latest attempt of run {}", path_, attempt, run_id));
    SQLite::Statement att(*db_,
                          "UPDATE attempts SET state = ?, exit_code = ?, signal = ?, failure_class = ?, "
                          "failure_reason = ?, ended_at = ?, elapsed_s = ? WHERE run_id = ? AND attempt = ?");
    bind_outcome(att, 1, result);
    att.bind(8, run_id);
    att.bind(9, attempt);
    att.exec();
    insert_metrics(*db_, run_id, attempt, result.metrics);
    insert_provenance(*db_, run_id, attempt, result.provenance);
    tx.commit();
  });
}

std::vector<RunRecord> Store::attempts(std::int64_t run_id) const {
  return guarded(path_, "read attempts", [&] {
    SQLite::Statement q(*db_,
                        "SELECT r.id, r.campaign_id, r.point_id, r.repetition, a.attempt, a.state, a.exit_code, "
                        "a.signal, a.failure_class, a.failure_reason, a.started_at, a.ended_at, a.elapsed_s, a.run_dir "
                        "FROM attempts a JOIN runs r ON r.id = a.run_id WHERE a.run_id = ? ORDER BY a.attempt");
    q.bind(1, run_id);
    std::vector<RunRecord> out;
    while (q.executeStep()) out.push_back(read_run(q));
    return out;
  });
}

namespace {

std::string_view text_of(const SQLite::Column& c) { return {c.getText(), static_cast<std::size_t>(c.getBytes())}; }

}  // namespace

std::size_t Store::for_each_metric(std::int64_t campaign_id, const std::function<void(const MetricRowView&)>& f) const {
  return guarded(path_, "read metrics", [&] {
    SQLite::Statement q(*db_,
                        "SELECT r.id, r.point_id, r.repetition, r.state, m.name, m.idx, m.value, m.unit, m.better, r.attempt, "
                        "r.elapsed_s FROM runs r JOIN metrics m ON m.run_id = r.id AND m.attempt = r.attempt "
                        "WHERE r.campaign_id = ? ORDER BY r.state, r.id, m.name, m.idx");  // the order of runs_by_state: no sort
    q.bind(1, campaign_id);
    std::size_t rows = 0;
    MetricRowView row;
    std::string state;
    while (q.executeStep()) {
      row.run_id = q.getColumn(0).getInt64();
      row.point_id = text_of(q.getColumn(1));
      row.repetition = q.getColumn(2).getInt();
      if (const std::string_view s = text_of(q.getColumn(3)); s != state) state = s, row.state = state_from_name(state);
      row.name = text_of(q.getColumn(4));
      row.index = q.getColumn(5).getInt64();
      row.value = q.getColumn(6).getDouble();
      row.unit = text_of(q.getColumn(7));
      row.better = text_of(q.getColumn(8));
      row.attempt = q.getColumn(9).getInt();
      row.elapsed_s = optional_double(q.getColumn(10));
      f(row);
      ++rows;
    }
    return rows;
  });
}

std::vector<MetricRow> Store::metrics(std::int64_t campaign_id) const {
  std::vector<MetricRow> out;
  for_each_metric(campaign_id, [&](const MetricRowView& r) {
    out.push_back({r.run_id, std::string(r.point_id), r.repetition, r.state,
                   MetricRecord{std::string(r.name), r.index, r.value, std::string(r.unit), std::string(r.better)}});
  });
  return out;
}

KeyValues Store::provenance(std::int64_t run_id, int attempt) const {
  return guarded(path_, "read provenance", [&] {
    SQLite::Statement q(*db_, "SELECT key, value FROM run_provenance WHERE run_id = ? AND attempt = ? ORDER BY key");
    q.bind(1, run_id);
    q.bind(2, attempt);
    KeyValues out;
    while (q.executeStep()) out.emplace_back(q.getColumn(0).getString(), q.getColumn(1).getString());
    return out;
  });
}

void Store::set_provenance(const std::vector<AttemptValue>& values) {
  if (values.empty()) return;
  guarded(path_, "record provenance", [&] {
    SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::IMMEDIATE);
    for (const AttemptValue& v : values)
      insert_provenance(*db_, v.run_id, v.attempt, {{v.key, masker_.empty() ? v.value : masker_(v.value)}});
    tx.commit();
  });
}

std::vector<AttemptValue> Store::latest_provenance(std::int64_t campaign_id, const std::vector<std::string>& keys,
                                                   RunState state) const {
  return guarded(path_, "read provenance", [&] {
    SQLite::Statement q(*db_,
                        "SELECT r.id, r.attempt, p.key, p.value FROM runs r JOIN run_provenance p ON p.run_id = r.id AND "
                        "p.attempt = r.attempt WHERE r.campaign_id = ? AND r.state = ? AND p.key = ? ORDER BY r.id");
    std::vector<AttemptValue> out;
    for (const std::string& key : keys) {
      q.reset();
      q.bind(1, campaign_id);
      q.bind(2, std::string(state_name(state)));
      q.bind(3, key);
      while (q.executeStep())
        out.push_back({q.getColumn(0).getInt64(), q.getColumn(1).getInt(), q.getColumn(2).getString(), q.getColumn(3).getString()});
    }
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.run_id < b.run_id; });
    return out;
  });
}

std::vector<ProvenanceCount> Store::provenance_counts(std::int64_t campaign_id, const std::vector<std::string>& keys,
                                                      const std::optional<ProvenanceFilter>& only) const {
  return guarded(path_, "read provenance", [&] {
    SQLite::Statement q(*db_,
                        std::string("SELECT p.key, p.value, count(*) FROM run_provenance p JOIN runs r ON r.id = p.run_id AND "
                                    "p.attempt = r.attempt WHERE r.campaign_id = ? AND p.key = ? ") +
                            (only ? "AND EXISTS (SELECT 1 FROM run_provenance f WHERE f.run_id = r.id AND f.attempt = r.attempt "
                                    "AND f.key = ? AND f.value <> ?) "
                                  : "") +
                            "GROUP BY p.value ORDER BY count(*) DESC, p.value");
    std::vector<ProvenanceCount> out;
    for (const std::string& key : keys) {
      q.reset();
      q.bind(1, campaign_id);
      q.bind(2, key);
      if (only) {
        q.bind(3, only->key);
        q.bind(4, only->except);
      }
      while (q.executeStep())
        out.push_back({q.getColumn(0).getString(), q.getColumn(1).getString(), q.getColumn(2).getInt64()});
    }
    return out;
  });
}

}  // namespace sweep::store
