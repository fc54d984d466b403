#pragma once
// The rows of the results database (docs/database.md), as plain values. No SQLite types leak out of
// store/: everything else sees these structs only.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sweep::store {

/// A run's lifecycle: pending -> running -> succeeded | failed; failed and interrupted runs go back to
/// running as a new attempt when a campaign is resumed.
enum class RunState { pending, running, succeeded, failed };
std::string_view state_name(RunState s);
/// Throws Error(database) for a name not in the table.
RunState state_from_name(std::string_view name);

using KeyValues = std::vector<std::pair<std::string, std::string>>;

/// The provenance key `<prefix><metric>` of an attempt holds how many values the regex or json rule
/// of that metric found in the attempt's output, before its `reduce` (docs/database.md).
inline constexpr std::string_view kMatchesPrefix = "matches.";
/// The provenance a reparse reads again and replaces whole: the rules' match counts and what the run's
/// telemetry files gave (telemetry.files, .sources, .error, ...).
inline constexpr std::string_view kReparsedPrefixes[] = {kMatchesPrefix, "telemetry."};

/// The provenance key of an attempt that says whether its run asked for GPUs: kNoGpusRequested, or what
/// asked for them ("resources.gpus=2", "collbench --backend nccl"; runner/gpu_request.h). Reports show the
/// GPU and NCCL facts of only the runs that asked (docs/reports.md#the-hardware-in-the-provenance).
inline constexpr std::string_view kGpusRequestedKey = "gpus_requested";
inline constexpr std::string_view kNoGpusRequested = "none";

/// Runs whose latest attempt recorded provenance `key` with any value but `except`.
/// One provenance value of one attempt of a run.
struct AttemptValue {
  std::int64_t run_id = 0;
  int attempt = 0;
  std::string key;
  std::string value;

  friend bool operator==(const AttemptValue&, const AttemptValue&) = default;
};

struct ProvenanceFilter {
  std::string key;
  std::string except;
};

/// How many of a campaign's runs recorded `value` for provenance `key` in their latest attempt.
struct ProvenanceCount {
  std::string key;
  std::string value;
  std::int64_t runs = 0;

  friend bool operator==(const ProvenanceCount&, const ProvenanceCount&) = default;
};

struct CampaignRecord {
  std::int64_t id = 0;
  std::string label;
  std::string experiment;     // the experiment's name
  std::string spec_path;
  std::string spec_text;      // the experiment file as it was when the campaign was created
  std::string spec_hash;      // sha256 of spec_text
  std::string overrides;      // the --set overrides, one "key=value" per line
  std::string executor;
  int repetitions = 1;
  std::string started_at;     // ISO-8601 UTC
  std::string ended_at;       // "" while unfinished
  std::string host;
  std::string user;
  std::string tool_version;
  std::string git_commit;     // "" when the experiment is not in a git repository
  std::optional<bool> git_dirty;
  std::string run_root;       // directory holding the campaign's run directories
  std::string experiment_dir; // absolute directory of the experiment file when created ("" before schema 6)
  std::string launch_dir;     // absolute directory sweep was started in when created ("" before schema 6)
  std::string system;         // the site file's name when it started ("" without one, or before schema 10)
  std::string origin_database_id;  // "" for a local campaign; else the database `sweep import` took it from
  std::string origin_label;        // its label there ("" for a local campaign)
};

/// What a campaign was started with besides its experiment, by name (table campaign_settings, schema 9;
/// the names and their meaning: runner/campaign_settings.h).
using CampaignSettings = std::map<std::string, std::string>;

/// What `sweep run` expected of one point before the campaign started (table campaign_forecasts, schema
/// 10; docs/forecasts.md): runs counted, nodes and GPUs per run, one run's expected and upper seconds
/// (none where nothing gave one), their source ("history", "model", "time_limit", "none"), and one
/// run's expected energy in joules where history gave one.
struct ForecastRecord {
  std::string point_id;
  int runs = 0;
  int nodes = 0;
  int gpus = 0;
  std::optional<double> expected_s;
  std::optional<double> upper_s;
  std::string source;
  std::optional<double> energy_j;

  friend bool operator==(const ForecastRecord&, const ForecastRecord&) = default;
};

struct BaselineRecord {
  std::string name;
  std::string campaign;  // label
  std::string set_at;
};

struct ParamRecord {
  std::string name;
  std::string value;  // canonical text (util/value.h)
  std::string type;   // "bool" | "int" | "float" | "string"
  bool derived = false;
};

struct PointRecord {
  std::string point_id;
  std::int64_t ordinal = 0;
  std::vector<ParamRecord> params;  // parameters then derived values, in schema order
};

struct RunRecord {
  std::int64_t id = 0;
  std::int64_t campaign_id = 0;
  std::string point_id;
  int repetition = 0;  // 0-based
  int attempt = 0;     // the latest attempt; 0 = never started
  RunState state = RunState::pending;
  std::optional<int> exit_code;
  std::optional<int> signal;
  std::string failure_class;   // "" unless failed: exit_code | timeout | missing_metric | signal | interrupted | spawn
  std::string failure_reason;  // human-readable
  std::string started_at;
  std::string ended_at;
  std::optional<double> elapsed_s;
  std::string run_dir;
};

struct MetricRecord {
  std::string name;
  std::int64_t index = 0;
  double value = 0;
  std::string unit;
  std::string better;  // "higher" | "lower" | ""
};

/// How an attempt ended, written in one transaction with its metrics and provenance.
struct AttemptResult {
  RunState state = RunState::failed;  // succeeded or failed
  std::optional<int> exit_code;
  std::optional<int> signal;
  std::string failure_class;
  std::string failure_reason;
  std::string ended_at;
  std::optional<double> elapsed_s;
  std::vector<MetricRecord> metrics;
  KeyValues provenance;
};

/// A metric of a run's latest attempt, joined with the run, for reports.
struct MetricRow {
  std::int64_t run_id = 0;
  std::string point_id;
  int repetition = 0;
  RunState state = RunState::pending;
  MetricRecord metric;
};

/// A MetricRow whose text points into the database's row buffer (Store::for_each_metric).
struct MetricRowView {
  std::int64_t run_id = 0;
  std::string_view point_id;
  int repetition = 0;
  RunState state = RunState::pending;
  int attempt = 0;  // the run's latest attempt, whose metrics these are
  std::string_view name;
  std::int64_t index = 0;
  double value = 0;
  std::string_view unit;
  std::string_view better;
  std::optional<double> elapsed_s = {};  // the run's wall time (runs.elapsed_s); none before it ended
};

/// One scheduler submission: a job array whose task `task` is attempt `attempt` of run `run_id`.
/// Recorded as "submitting" (with its tasks, whose attempts are then running) before the scheduler is
/// called, and as "submitted" with the job id, or "failed" with the error, after it answers.
struct SubmissionTask {
  int task = 0;
  std::int64_t run_id = 0;
  int attempt = 0;
};

struct SubmissionRecord {
  std::int64_t id = 0;
  std::int64_t campaign_id = 0;
  std::string state;   // "submitting" | "submitted" | "failed"
  std::string job_id;  // the array's job id once submitted
  std::string dir;     // holds the array script and its task table
  std::string created_at;
  std::string submitted_at;
  std::string error;
  std::vector<SubmissionTask> tasks;  // by task id
};

/// A run to start as part of a submission, with the run directory of its new attempt.
struct NewAttempt {
  std::int64_t run_id = 0;
  std::string run_dir;
};

/// One explicit edit of a stored campaign (schema 7, table campaign_changes): who made it, when, and
/// what changed. Written by `sweep reparse`, `sweep rerun` and `sweep extend`; never deleted but with
/// the campaign.
struct ChangeRecord {
  std::int64_t id = 0;
  std::int64_t campaign_id = 0;
  std::string at;          // ISO-8601 UTC
  std::string user;
  std::string host;
  std::string kind;        // "reparse" | "rerun" | "extend"
  std::string what;        // what changed, in words (one line)
  std::string rules_hash;  // reparse: sha256 of the metric rules that produced the values now stored; else ""
};

/// A run's latest attempt read again with new metric rules (sweep reparse): its new metrics and
/// `matches.*` provenance, and, when `redecided`, its new verdict.
struct ReparsedRun {
  std::int64_t run_id = 0;
  int attempt = 0;
  bool redecided = false;  // state, failure_class and failure_reason replace the stored ones
  RunState state = RunState::failed;
  std::string failure_class;
  std::string failure_reason;
  std::vector<MetricRecord> metrics;
  KeyValues matches;  // provenance under kReparsedPrefixes (matches.<metric>, telemetry.*), replacing every stored one
};

struct StateCount {
  RunState state;
  std::int64_t count = 0;
};

}  // namespace sweep::store
