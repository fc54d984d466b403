// Store methods for the explicit edits of a stored campaign: its recorded changes (campaign_changes),
// results read again (sweep reparse), runs queued again (sweep rerun) and the campaign's removal.
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include "store/sql_helpers.h"
#include "store/store.h"
#include "store/views.h"

namespace sweep::store {
using namespace detail;

namespace {

void insert_change(SQLite::Database& db, const ChangeRecord& c) {
  SQLite::Statement q(db, "INSERT INTO campaign_changes (campaign_id, at, user, host, kind, what, rules_hash) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?)");
  q.bind(1, c.campaign_id);
  int i = 2;
  for (const std::string* s : {&c.at, &c.user, &c.host, &c.kind, &c.what, &c.rules_hash}) q.bind(i++, *s);
  q.exec();
}

/// Replaces one attempt's metrics and the provenance under kReparsedPrefixes, and its verdict when it was redecided.
void replace_run(SQLite::Database& db, const std::string& path, const ReparsedRun& r) {
  SQLite::Statement latest(db, "SELECT count(*) FROM runs WHERE id = ? AND attempt = ?");
  latest.bind(1, r.run_id);
  latest.bind(2, r.attempt);
  if (!latest.executeStep() || latest.getColumn(0).getInt() != 1)
    throw Error(ErrorKind::database,
                fmt::format("{}: attempt {} of run {} is no longer the run's latest (did a run start meanwhile?)", path,
                            r.attempt, r.run_id));
  SQLite::Statement del(db, "DELETE FROM metrics WHERE run_id = ? AND attempt = ?");
  del.bind(1, r.run_id);
  del.bind(2, r.attempt);
  del.exec();
  for (const std::string_view prefix : kReparsedPrefixes) {
    SQLite::Statement del_matches(db, "DELETE FROM run_provenance WHERE run_id = ? AND attempt = ? AND key LIKE ?");
    del_matches.bind(1, r.run_id);
    del_matches.bind(2, r.attempt);
    del_matches.bind(3, std::string(prefix) + "%");
    del_matches.exec();
  }
  insert_metrics(db, r.run_id, r.attempt, r.metrics);
  insert_provenance(db, r.run_id, r.attempt, r.matches);
  if (!r.redecided) return;
  for (const char* table : {"runs", "attempts"}) {
    const bool runs = std::string_view(table) == "runs";
    SQLite::Statement q(db, fmt::format("UPDATE {} SET state = ?, failure_class = ?, failure_reason = ? WHERE {} = ? "
                                        "AND attempt = ?",
                                        table, runs ? "id" : "run_id"));
    q.bind(1, std::string(state_name(r.state)));
    q.bind(2, r.failure_class);
    q.bind(3, r.failure_reason);
    q.bind(4, r.run_id);
    q.bind(5, r.attempt);
    q.exec();
  }
}

}  // namespace

std::vector<ChangeRecord> Store::changes(std::int64_t campaign_id) const {
  return guarded(path_, "read the campaign's changes", [&] {
    SQLite::Statement q(*db_, "SELECT id, campaign_id, at, user, host, kind, what, rules_hash FROM campaign_changes "
                              "WHERE campaign_id = ? ORDER BY id");
    q.bind(1, campaign_id);
    std::vector<ChangeRecord> out;
    while (q.executeStep())
      out.push_back(ChangeRecord{q.getColumn(0).getInt64(), q.getColumn(1).getInt64(), q.getColumn(2).getString(),
                                 q.getColumn(3).getString(), q.getColumn(4).getString(), q.getColumn(5).getString(),
                                 q.getColumn(6).getString(), q.getColumn(7).getString()});
    return out;
  });
}

void Store::record_change(const ChangeRecord& change) {
  guarded(path_, "record a change of the campaign", [&] { insert_change(*db_, change); });
}

void Store::replace_results(std::int64_t campaign_id, const std::vector<ReparsedRun>& runs, const ChangeRecord& change,
                            const std::string& spec_text, const std::string& spec_hash) {
  guarded(path_, "replace the campaign's metric values", [&] {
    SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::IMMEDIATE);
    for (ReparsedRun r : runs) {
      mask_recorded(masker_, r.failure_reason, r.metrics, r.matches);
      replace_run(*db_, path_, r);
    }
    if (!spec_text.empty()) {
      SQLite::Statement q(*db_, "UPDATE campaigns SET spec_text = ?, spec_hash = ? WHERE id = ?");
      q.bind(1, spec_text);
      q.bind(2, spec_hash);
      q.bind(3, campaign_id);
      q.exec();
    }
    insert_change(*db_, change);
    tx.commit();
  });
}

void Store::requeue_runs(std::int64_t campaign_id, const std::vector<std::int64_t>& run_ids, const ChangeRecord& change) {
  guarded(path_, "queue runs again", [&] {
    SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::IMMEDIATE);
    SQLite::Statement q(*db_, "UPDATE runs SET state = 'pending' WHERE id = ? AND campaign_id = ? AND state != 'running'");
    for (const std::int64_t id : run_ids) {
      q.bind(1, id);
      q.bind(2, campaign_id);
      if (q.exec() != 1)
        throw Error(ErrorKind::usage, fmt::format("run {} is running or not a run of this campaign; nothing was queued", id));
      q.reset();
    }
    insert_change(*db_, change);
    tx.commit();
  });
}

void Store::remove_campaign(std::int64_t campaign_id) {
  guarded(path_, "remove the campaign", [&] {
    SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::IMMEDIATE);
    SQLite::Statement label(*db_, "SELECT label FROM campaigns WHERE id = ?");
    label.bind(1, campaign_id);
    if (!label.executeStep()) throw Error(ErrorKind::not_found, fmt::format("{}: no campaign with id {}", path_, campaign_id));
    const std::string name = label.getColumn(0).getString();
    label.reset();
    drop_campaign_view(*db_, name);
    // Foreign keys cascade from campaigns to points, runs, attempts, metrics, provenance, submissions,
    // baselines and changes; runs are deleted explicitly first so that nothing relies on a long chain.
    for (const char* sql : {"DELETE FROM runs WHERE campaign_id = ?", "DELETE FROM campaigns WHERE id = ?"}) {
      SQLite::Statement q(*db_, sql);
      q.bind(1, campaign_id);
      q.exec();
    }
    tx.commit();
  });
}

}  // namespace sweep::store
