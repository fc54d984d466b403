// Store methods for scheduler submissions (schema version 2, docs/database.md).
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <map>

#include "store/sql_helpers.h"
#include "store/store.h"

namespace sweep::store {
using namespace detail;

SubmissionRecord Store::begin_submission(std::int64_t campaign_id, const std::string& dir,
                                         const std::string& created_at, const std::vector<NewAttempt>& attempts) {
  return guarded(path_, "record a submission", [&] {
    SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::IMMEDIATE);
    SQLite::Statement insert(*db_, "INSERT INTO submissions (campaign_id, state, dir, created_at) "
                                   "VALUES (?, 'submitting', ?, ?) RETURNING id");
    insert.bind(1, campaign_id);
    insert.bind(2, dir);
    insert.bind(3, created_at);
    insert.executeStep();
    SubmissionRecord sub{insert.getColumn(0).getInt64(), campaign_id, "submitting", "", dir, created_at, "", "", {}};
    insert.reset();
    SQLite::Statement task(*db_, "INSERT INTO submission_tasks (submission_id, task, run_id, attempt) VALUES (?, ?, ?, ?)");
    for (std::size_t i = 0; i < attempts.size(); ++i) {
      const int attempt = start_attempt(*db_, path_, attempts[i].run_id, attempts[i].run_dir, created_at);
      task.bind(1, sub.id);
      task.bind(2, static_cast<int>(i));
      task.bind(3, attempts[i].run_id);
      task.bind(4, attempt);
      task.exec();
      task.reset();
      sub.tasks.push_back({static_cast<int>(i), attempts[i].run_id, attempt});
    }
    tx.commit();
    return sub;
  });
}

void Store::mark_submitted(std::int64_t submission_id, const std::string& job_id, const std::string& at) {
  guarded(path_, "record a submission's job id", [&] {
    SQLite::Statement q(*db_, "UPDATE submissions SET state = 'submitted', job_id = ?, submitted_at = ? WHERE id = ?");
    q.bind(1, job_id);
    q.bind(2, at);
    q.bind(3, submission_id);
    q.exec();
  });
}

void Store::mark_submission_failed(std::int64_t submission_id, const std::string& error) {
  guarded(path_, "record a failed submission", [&] {
    SQLite::Statement q(*db_, "UPDATE submissions SET state = 'failed', error = ? WHERE id = ?");
    q.bind(1, masker_(error));
    q.bind(2, submission_id);
    q.exec();
  });
}

std::vector<SubmissionRecord> Store::submissions(std::int64_t campaign_id) const {
  return guarded(path_, "read submissions", [&] {
    std::vector<SubmissionRecord> out;
    std::map<std::int64_t, std::size_t> index;
    SQLite::Statement q(*db_, "SELECT id, state, job_id, dir, created_at, submitted_at, error FROM submissions "
                              "WHERE campaign_id = ? ORDER BY id");
    q.bind(1, campaign_id);
    while (q.executeStep()) {
      index[q.getColumn(0).getInt64()] = out.size();
      out.push_back({q.getColumn(0).getInt64(), campaign_id, q.getColumn(1).getString(), q.getColumn(2).getString(),
                     q.getColumn(3).getString(), q.getColumn(4).getString(), q.getColumn(5).getString(),
                     q.getColumn(6).getString(), {}});
    }
    SQLite::Statement t(*db_, "SELECT t.submission_id, t.task, t.run_id, t.attempt FROM submission_tasks t "
                              "JOIN submissions s ON s.id = t.submission_id WHERE s.campaign_id = ? "
                              "ORDER BY t.submission_id, t.task");
    t.bind(1, campaign_id);
    while (t.executeStep())
      out[index.at(t.getColumn(0).getInt64())].tasks.push_back(
          {t.getColumn(1).getInt(), t.getColumn(2).getInt64(), t.getColumn(3).getInt()});
    return out;
  });
}

}  // namespace sweep::store
