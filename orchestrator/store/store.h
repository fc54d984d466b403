#pragma once
// The results database (the only user of SQLiteCpp). One SQLite file in WAL mode: readers never block
// the campaign that writes, and every write below is one transaction, so a controller killed at any
// moment leaves either the state before a call or the state after it, never half of one.
#include <functional>
#include <memory>
#include <atomic>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/records.h"
#include "util/secrets.h"

namespace SQLite {
class Database;
}

namespace sweep::store {

class Store {
 public:
  /// Opens (creating if needed) the database at `path`, whose directory must exist, and brings it to
  /// the current schema or refuses it with Error(database) (see schema.h). Every SQLite failure of
  /// every method surfaces as Error(database) naming the file. Before SQLite touches it, the file
  /// (checked by fstat on an opened descriptor) and its directory must be trusted
  /// (util/safe_files.h: yours and writable by nobody else, or shared by group on purpose), else
  /// Error(usage) saying how to opt in.
  explicit Store(const std::string& path);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::string& path() const { return path_; }
  /// The database's random identity (schema_info.database_id, set when it was created or migrated
  /// to version 5): what a run root's marker names.
  std::string database_id() const;

  /// Known secret values (util/secrets.h) masked in every failure reason, metric name and unit, provenance
  /// key and value, and submission error written from now on, by a run's result and by a reparse: the
  /// database never holds one (docs/experiment-format.md#secrets).
  void mask_secrets(Masker masker) { masker_ = std::move(masker); }

  // --- campaigns -------------------------------------------------------------------------------
  std::optional<CampaignRecord> find_campaign(std::string_view label) const;
  /// Every campaign, oldest first.
  std::vector<CampaignRecord> campaigns() const;
  /// Inserts the campaign, its points with their parameters, `repetitions` pending runs per point, and
  /// the settings it was started with (campaign_settings, schema 9), atomically. Returns the campaign id.
  /// Error(database) if the label exists.
  /// `forecast`: its rows of campaign_forecasts (schema 10), written in the same transaction.
  /// `stop`, when given, is read every few thousand rows: once it is set (a signal), the transaction is
  /// rolled back and Error(interrupted) thrown, "stopped by a signal while recording the campaign;
  /// nothing was recorded" (a million runs take seconds to record).
  std::int64_t create_campaign(const CampaignRecord& campaign, const std::vector<PointRecord>& points,
                               const CampaignSettings& settings = {}, const std::vector<ForecastRecord>& forecast = {},
                               const std::atomic<bool>* stop = nullptr);
  /// The forecast rows stored with a campaign when it was created, in point order (store/forecasts.cpp);
  /// empty for a campaign created without one (before schema 10, or imported without one).
  std::vector<ForecastRecord> forecasts(std::int64_t campaign_id) const;
  /// The settings recorded with a campaign when it was created (name -> value); empty for a campaign
  /// from before schema 9.
  CampaignSettings campaign_settings(std::int64_t campaign_id) const;
  /// Sets ended_at; "" clears it (a campaign run again after it had ended).
  void end_campaign(std::int64_t campaign_id, const std::string& ended_at);

  // --- explicit edits of a stored campaign (store/campaign_edits.cpp) ----------------------------
  /// The campaign's recorded changes, oldest first.
  std::vector<ChangeRecord> changes(std::int64_t campaign_id) const;
  /// Records `change` (its campaign_id names the campaign) in its own transaction.
  void record_change(const ChangeRecord& change);
  /// In one transaction: replaces the metrics and `matches.*` provenance of each run's attempt in
  /// `runs` (and the verdict of those redecided, in runs and attempts), stores `spec_text` with its
  /// `spec_hash` as the campaign's experiment when spec_text is not empty, and records `change`.
  /// All or nothing: a failure leaves every stored value as it was.
  void replace_results(std::int64_t campaign_id, const std::vector<ReparsedRun>& runs, const ChangeRecord& change,
                       const std::string& spec_text = "", const std::string& spec_hash = "");
  /// In one transaction: sets the runs `run_ids` of the campaign to pending (their attempts and
  /// results kept: the next start is a new attempt of each) and records `change`. Error(usage) naming
  /// a run that is running or not the campaign's.
  void requeue_runs(std::int64_t campaign_id, const std::vector<std::int64_t>& run_ids, const ChangeRecord& change);
  /// In one transaction: deletes the campaign, every row that belongs to it (points, runs, attempts,
  /// metrics, provenance, submissions, baselines pinned to it, changes) and its view "values:<label>".
  void remove_campaign(std::int64_t campaign_id);

  // --- baselines (store/baselines.cpp) ----------------------------------------------------------
  /// Pins `name` to the campaign, replacing an earlier pin of that name.
  void set_baseline(const std::string& name, std::int64_t campaign_id, const std::string& set_at);
  /// The campaign pinned as `name`, if any.
  std::optional<CampaignRecord> baseline(const std::string& name) const;
  /// Every pin: (name, campaign label, set_at), by name.
  std::vector<BaselineRecord> baselines() const;

  // --- points and runs --------------------------------------------------------------------------
  std::vector<PointRecord> points(std::int64_t campaign_id) const;
  /// The runs of a campaign ordered by point ordinal, then repetition.
  std::vector<RunRecord> runs(std::int64_t campaign_id) const;
  std::vector<StateCount> state_counts(std::int64_t campaign_id) const;
  /// Adds pending runs in one transaction: `count` more repetitions of each point, numbered on from the
  /// point's highest repetition. Returns them interleaved: every point's first new run (in the order
  /// given), then every point's second, and so on.
  std::vector<RunRecord> add_runs(std::int64_t campaign_id, const std::vector<std::pair<std::string, int>>& more);

  /// Starts a new attempt of a run: increments its attempt, sets it running with `run_dir` and
  /// `started_at`, and adds the attempts row. Returns the new attempt number.
  int begin_attempt(std::int64_t run_id, const std::string& run_dir, const std::string& started_at);
  /// Ends attempt `attempt` of a run with `result` (state, metrics and provenance together). A result
  /// for an attempt that is no longer the run's latest is refused with Error(database).
  void finish_attempt(std::int64_t run_id, int attempt, const AttemptResult& result);
  /// Every attempt of a run, oldest first (state, exit code, reason, ...), as RunRecords.
  std::vector<RunRecord> attempts(std::int64_t run_id) const;

  // --- scheduler submissions (store/submissions.cpp) ---------------------------------------------
  /// In one transaction: begins a new attempt of each run (as begin_attempt) and records a
  /// "submitting" submission whose task i is attempts[i]. Returns the submission with its tasks.
  SubmissionRecord begin_submission(std::int64_t campaign_id, const std::string& dir, const std::string& created_at,
                                    const std::vector<NewAttempt>& attempts);
  /// Records the scheduler's answer: "submitted" with `job_id`.
  void mark_submitted(std::int64_t submission_id, const std::string& job_id, const std::string& at);
  /// Records that the submission never reached the scheduler, with the reason.
  void mark_submission_failed(std::int64_t submission_id, const std::string& error);
  /// The campaign's submissions, oldest first, with their tasks.
  std::vector<SubmissionRecord> submissions(std::int64_t campaign_id) const;

  // --- results ----------------------------------------------------------------------------------
  /// Metrics of each run's latest attempt, for every run of the campaign (any state), ordered by run
  /// state, run id, metric name and index: each run's rows together, runs of a state in id order.
  std::vector<MetricRow> metrics(std::int64_t campaign_id) const;
  /// The same rows, in the same order, handed to `f` one at a time without copying their text: the
  /// views are valid only during the call. Returns the number of rows.
  std::size_t for_each_metric(std::int64_t campaign_id, const std::function<void(const MetricRowView&)>& f) const;
  KeyValues provenance(std::int64_t run_id, int attempt) const;
  /// Sets each provenance value (replacing the attempt's earlier value of that key) in one transaction:
  /// what the scheduler says of attempts still under way (batch driver: "slurm.phase", "slurm.reason").
  void set_provenance(const std::vector<AttemptValue>& values);
  /// The values of `keys` in the latest attempt of each of the campaign's runs in `state`, by run id then key.
  std::vector<AttemptValue> latest_provenance(std::int64_t campaign_id, const std::vector<std::string>& keys,
                                              RunState state) const;
  /// For each of `keys`, the values the campaign's runs recorded in their latest attempt, with how many
  /// runs recorded each; by key, then by most runs. Keys no run recorded are absent. With `only`, over
  /// only the runs it selects.
  std::vector<ProvenanceCount> provenance_counts(std::int64_t campaign_id, const std::vector<std::string>& keys,
                                                 const std::optional<ProvenanceFilter>& only = std::nullopt) const;

  /// Runs `body` inside one read transaction: every read it makes through this store sees the same
  /// snapshot of the database (WAL mode), whatever a campaign commits meanwhile, so a run's state and
  /// its metrics are never read from two different moments. `body` must not write.
  void read_consistently(const std::function<void()>& body) const;

 private:
  std::string path_;
  std::unique_ptr<SQLite::Database> db_;
  Masker masker_;
};

}  // namespace sweep::store
