// The batch driver's tracking: one scheduler query per poll cycle, and the results of ended tasks.
#include <fmt/core.h>

#include <filesystem>
#include <algorithm>
#include <cctype>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "runner/job_usage.h"
#include "runner/ingest.h"
#include "runner/nic_sampling.h"
#include "runner/batch_driver_impl.h"
#include "runner/output_evidence.h"
#include "runner/scheduler_look.h"
#include "util/strings.h"

namespace sweep::runner {
namespace fs = std::filesystem;

namespace {


/// What the scheduler said of an ended task, as provenance keys under `prefix` ("slurm.state", ...).
store::KeyValues job_provenance(std::string_view prefix, const TrackedTask& t, const sched::JobRecord& rec, int restarts) {
  const auto k = [&](std::string_view name) { return fmt::format("{}.{}", prefix, name); };
  return {{k("phase"), "ended"},  // it was "queued" or "running" while under way (note_state)
          {k("reason"), rec.reason},  // what squeue last said while it waited is history now
          {k("restarts"), std::to_string(restarts)},
          {k("array_job_id"), t.array_job_id},
          {k("array_task_id"), std::to_string(t.task)},
          {k("job_id"), rec.job_id},
          {k("state"), rec.state},
          {k("exit_code"), fmt::format("{}:{}", rec.exit_code.value_or(-1), rec.signal.value_or(0))},
          {k("node_list"), rec.node_list},
          {k("partition"), rec.partition},
          {k("start"), rec.start},
          {k("end"), rec.end}};
}

/// Whether the run directory holds the files of the task's last start. The executor's job script
/// (templates/<executor>/run.sh.mustache) clears them when a requeued job starts again and records
/// <NAME>_RESTART_COUNT in provenance/<name>_env; a restart that ended before its script ran (a failed
/// prolog or launch) leaves an earlier start's files, which say nothing of how the job ended.
bool files_of_last_start(std::string_view scheduler, const std::string& run_dir, int restarts) {
  if (restarts <= 0) return true;
  std::string upper(scheduler);
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  std::ifstream env(fmt::format("{}/provenance/{}_env", run_dir, scheduler));
  const std::string recorded = fmt::format("{}_RESTART_COUNT={}", upper, restarts);
  for (std::string line; std::getline(env, line);)
    if (line == recorded) return true;
  return false;
}

}  // namespace

void BatchDriver::after_failure(std::int64_t run_id, int attempt, const store::AttemptResult& result) {
  if (!retry_allowed(plan_.experiment(), result.failure_class, db_.attempts(run_id))) return;
  for (const auto& a : db_.attempts(run_id))
    if (a.attempt == attempt) queue_.push_back(a);
}

/// The attempt's directives ("slurm.options": as recorded when it was submitted, else as they would be
/// now), and what grew in them (only when something did).
store::KeyValues BatchDriver::options_provenance(const TrackedTask& t) const {
  const auto attempts = db_.attempts(t.run_id);
  if (attempts.empty()) return {};
  const AttemptResources r = resources_for(t.run_id, attempts.front().point_id, t.attempt);
  std::string options = join(scheduler_->directives(r.resources), " ");
  for (const auto& [k, v] : db_.provenance(t.run_id, t.attempt))
    if (k == key("options")) options = v;
  store::KeyValues out{{key("options"), options}};
  if (!r.note.empty()) out.push_back({key("escalated"), r.note});
  out.emplace_back(store::kGpusRequestedKey, plan_.gpus_requested(plan_.point(attempts.front().point_id)));
  for (auto& kv : requested_provenance(r.resources)) out.push_back(std::move(kv));
  return out;
}

void BatchDriver::finish_failed(const TrackedTask& t, std::string_view cls, const std::string& reason) {
  const auto r = record_failed_attempt(db_, clock_, t.run_id, t.attempt, cls, reason, options_provenance(t));
  ++finished_here_;
  after_failure(t.run_id, t.attempt, r);
}

void BatchDriver::finish(const TrackedTask& t, const sched::JobRecord& rec, const sched::JobUsage* usage) {
  const sched::StateInfo info = scheduler_->state_info(rec.state);
  exec::Outcome outcome;
  outcome.exit_code = rec.exit_code.value_or(-1);
  outcome.signal = rec.signal.value_or(0);
  // A workload killed by a signal shows as exit 0 with the signal; one that ended by itself left its
  // status in ./exit_code, which is more precise than the batch step's, unless an earlier start left it.
  const int restarts = std::max(t.restarts, rec.restarts.value_or(0));
  const bool fresh = files_of_last_start(scheduler_->name(), t.run_dir, restarts);
  if (const auto code = recorded_exit_code(t.run_dir); code && outcome.signal == 0 && fresh) outcome.exit_code = *code;
  outcome.timed_out = info.failure_class == failure::kTimeout;
  outcome.elapsed_s = rec.elapsed_s.value_or(0);
  store::AttemptResult result = ingest(outcome, t.run_dir, extractor_, plan_.experiment().success, nic_counters_on(plan_.experiment().network),
                                       plan_.experiment().telemetry.enabled);
  if (!fresh && result.state == store::RunState::failed) {  // judged by the scheduler's word alone
    result.metrics.clear();
    result.failure_reason = fmt::format("{} ended job {}_{} as {} (exit code {}) after restart {}, before its job script "
                                        "ran again (the run directory holds an earlier start's files)",
                                        scheduler_->controller(), t.array_job_id, t.task, rec.state, outcome.exit_code, restarts);
  }
  if (!info.failure_class.empty()) {
    result.state = store::RunState::failed;
    result.failure_class = std::string(info.failure_class);
    result.failure_reason = with_output_tail(fmt::format("{} ended job {}_{} as {}{}", scheduler_->controller(), t.array_job_id,
                                                         t.task, rec.state, rec.node_list.empty() ? "" : " on " + rec.node_list),
                                             result.failure_class, t.run_dir);
  }
  if (rec.elapsed_s) result.elapsed_s = rec.elapsed_s;
  result.ended_at = iso8601(clock_.wall());
  for (auto& kv : job_provenance(scheduler_->name(), t, rec, restarts))
    result.provenance.push_back(std::move(kv));
  for (auto& kv : options_provenance(t)) result.provenance.push_back(std::move(kv));
  if (usage) {  // runner/job_usage.h
    std::vector<std::string> warnings;
    add_usage(scheduler_->name(), *usage, result, warnings);
    add_warnings(t.run_dir, warnings, result);
  }
  db_.finish_attempt(t.run_id, t.attempt, result);
  ++finished_here_;
  if (result.state == store::RunState::failed) after_failure(t.run_id, t.attempt, result);
}

/// Whether accounting's records hold the task's end (and so its steps' usage figures).
bool BatchDriver::ended_in(const std::vector<sched::JobRecord>& accounting, const TrackedTask& t) const {
  return std::any_of(accounting.begin(), accounting.end(), [&](const sched::JobRecord& r) {
    return r.array_job_id == t.array_job_id && r.task_id() == t.task &&
           scheduler_->state_info(r.state).phase == sched::Phase::finished;
  });
}

/// The ended task's final record, in a state that ends it: from accounting when it exists, else the
/// controller's (`live`, while it still knows the job), else the completion log. nullopt when no
/// source knows it (yet).
std::optional<sched::JobRecord> BatchDriver::final_record(const TrackedTask& t, const std::optional<sched::JobRecord>& live,
                                                          const std::vector<sched::JobRecord>& accounting,
                                                          std::optional<std::vector<sched::JobRecord>>& completions) {
  for (const auto& r : accounting)
    if (r.array_job_id == t.array_job_id && r.task_id() == t.task &&
        scheduler_->state_info(r.state).phase == sched::Phase::finished)
      return r;
  if (live) return live;
  if (!completions) completions = scheduler_->completions();
  // The last line that ended the task: a job the scheduler requeued has an earlier line that did not
  // (state REQUEUED), and one for each start.
  const auto finished = [&](const sched::JobRecord& r) { return scheduler_->state_info(r.state).phase == sched::Phase::finished; };
  for (auto r = completions->rbegin(); r != completions->rend(); ++r)
    if (r->array_job_id == t.array_job_id && r->task_id() == t.task && finished(*r)) return *r;
  // An array cancelled before it was split leaves one line for the whole array, under its own id.
  for (auto r = completions->rbegin(); r != completions->rend(); ++r)
    if (r->array_job_id.empty() && r->job_id == t.array_job_id && finished(*r)) return *r;
  return std::nullopt;
}

/// What one poll says of one task (`rec` is null when the scheduler did not list it): still waiting
/// (false), or done with here (true): ended and added to `ended`, or cancelled as hopeless.
bool BatchDriver::examine(TrackedTask& t, const sched::JobRecord* rec, std::vector<EndedTask>& ended,
                          std::vector<std::string>& cancel) {
  if (!rec) {  // aged out of the controller, or ended while it was away: look for it elsewhere
    if (++t.unseen_polls < 2) return false;
    ended.push_back({t, std::nullopt});
    return true;
  }
  t.unseen_polls = 0;
  if (rec->restarts && *rec->restarts > t.restarts) {  // requeued: the same attempt starts again
    t.restarts = *rec->restarts;
    fmt::print(stderr, "sweep: {} requeued job {}_{} (restart {}); following it\n", scheduler_->controller(),
               t.array_job_id, t.task, t.restarts);
  }
  const sched::Phase phase = scheduler_->state_info(rec->state).phase;
  t.started = phase == sched::Phase::running;
  if (phase == sched::Phase::finished) {
    ended.push_back({t, *rec});
    return true;
  }
  note_state(t, phase, *rec);
  const std::string task = fmt::format("{}_{}", t.array_job_id, t.task);
  if (phase == sched::Phase::queued && scheduler_->dependency_never_satisfied(rec->reason)) {
    cancel.push_back(task);
    finish_failed(t, failure::kDependency, fmt::format("job {} was cancelled: {}", task, rec->reason));
    return true;
  }
  if (phase != sched::Phase::queued || !scheduler_->hopeless_reason(rec->reason)) {
    t.queued_since = 0;
    return false;
  }
  if (t.queued_since == 0) t.queued_since = now();
  if (now() - t.queued_since < options_.max_pending_s) return false;
  cancel.push_back(task);
  finish_failed(t, failure::kUnsatisfiable, fmt::format("job {} was pending for {:.0f} s with reason \"{}\" and was cancelled",
                                                task, now() - t.queued_since, rec->reason));
  return true;
}

/// Notes what the scheduler says of a task under way, for `sweep status`: "<scheduler>.phase" (queued or
/// running), ".state" (its own name: PENDING) and ".reason" (why it waits; "" once it runs), as provenance
/// of the attempt, only when one of them changed since it was last recorded. poll() writes them.
void BatchDriver::note_state(TrackedTask& t, sched::Phase phase, const sched::JobRecord& rec) {
  auto values = scheduler_state_values(scheduler_->name(), t.run_id, t.attempt, phase, rec);  // runner/scheduler_look.h
  std::string now_said;
  for (const auto& v : values) now_said += v.value + "\n";
  if (now_said == t.recorded) return;
  t.recorded = std::move(now_said);
  noted_.insert(noted_.end(), values.begin(), values.end());
}

/// Records the results of tasks that ended, with one sacct call for all of them when accounting exists,
/// and one for their usage figures (absent figures never fail a run).
void BatchDriver::finish_ended(std::vector<EndedTask>& ended) {
  std::vector<sched::JobRecord> accounting;
  std::set<std::string> ids;
  for (const auto& e : ended) ids.insert(e.task.array_job_id);
  const auto acct = scheduler_->accounting({ids.begin(), ids.end()});
  if (acct) accounting = *acct;
  std::vector<sched::JobUsage> usage;
  if (!ids.empty()) usage = scheduler_->usage({ids.begin(), ids.end()}).value_or(std::vector<sched::JobUsage>{});
  std::optional<std::vector<sched::JobRecord>> completions;
  for (auto& [t, rec] : ended) {
    if (wait_for_accounting_ && acct && rec && !ended_in(accounting, t) && t.usage_waits++ < 2) {
      tracked_[{t.array_job_id, t.task}] = t;  // accounting has not stored its end (nor its steps' usage) yet
      continue;
    }
    if (const auto final = final_record(t, rec, accounting, completions)) {
      const auto u = std::find_if(usage.begin(), usage.end(), [&](const sched::JobUsage& j) {
        return j.array_job_id == t.array_job_id && j.task == t.task;
      });
      finish(t, *final, u == usage.end() ? nullptr : &*u);
    } else if (++t.unseen_polls < 6) {
      tracked_[{t.array_job_id, t.task}] = t;  // maybe not written yet: look again next cycle
    } else {
      finish_failed(t, failure::kInterrupted,
                    fmt::format("{} has no record of job {}_{} (aged out with no accounting or completion record)",
                                scheduler_->controller(), t.array_job_id, t.task));
    }
  }
}

/// The job names of the submissions a poll asks about by name: every tracked one and every unconfirmed one.
std::vector<std::string> BatchDriver::watched_names() const {
  std::set<std::string> names;
  for (const auto& [key, t] : tracked_) names.insert(job_name(t.submission_id));
  for (const auto& sub : unconfirmed_) names.insert(job_name(sub.id));
  return {names.begin(), names.end()};
}

/// The tracked array after the one polled last, in turn.
std::string BatchDriver::next_array() {
  auto it = tracked_.upper_bound({last_polled_, std::numeric_limits<int>::max()});
  if (it == tracked_.end()) it = tracked_.begin();
  last_polled_ = it->first.first;
  return last_polled_;
}

/// Polls until every tracked array has been asked about once (one pass of `sweep collect` or `cancel`).
void BatchDriver::poll_every_array() {
  std::set<std::string> arrays;
  for (const auto& [key, t] : tracked_) arrays.insert(key.first);
  for (std::size_t i = 0; i < std::max<std::size_t>(arrays.size(), unconfirmed_.empty() ? 0 : 1); ++i) poll();
}

/// One poll cycle, one scheduler query. Usually the query is one tracked array by its job id, in turn
/// (the controller's cost stays flat however busy the cluster is; with several arrays each is seen
/// every few cycles). While a submission is unconfirmed (its submission failed transiently), the query is instead
/// this user's jobs with the campaign's watched names, which settles it. Returns whether anything changed.
/// The one query of a poll cycle: one array by its id (`array` set), or, while a submission is
/// unconfirmed, every watched name. Says once when the scheduler cannot be reached and when it answers again.
std::optional<std::vector<sched::JobRecord>> BatchDriver::ask_scheduler(std::optional<std::string>& array) {
  std::optional<std::vector<sched::JobRecord>> live;
  if (unconfirmed_.empty()) {
    array = next_array();
    live = scheduler_->array_jobs(*array);
  } else {
    live = scheduler_->own_jobs(watched_names());
  }
  if (!live) {
    if (!reported_unreachable_)
      fmt::print(stderr, "sweep: cannot reach {}; still waiting (next try in {:.0f} s)\n", scheduler_->controller(),
                 backoff_.interval());
    reported_unreachable_ = true;
    return live;
  }
  if (reported_unreachable_) fmt::print(stderr, "sweep: {} answers again\n", scheduler_->controller());
  reported_unreachable_ = false;
  return live;
}

bool BatchDriver::poll() {
  if (tracked_.empty() && unconfirmed_.empty()) return false;
  ++polls_;
  std::optional<std::string> array;  // the one array asked about; none = every watched name
  const std::optional<std::vector<sched::JobRecord>> live = ask_scheduler(array);
  if (!live) return false;
  for (auto it = unconfirmed_.begin(); !array && it != unconfirmed_.end();) {
    if (scheduler_->submitting_in(it->dir)) {
      ++it;
      continue;
    }
    settle_submission(*it, *live);
    it = unconfirmed_.erase(it);
  }
  const auto by_task = sched::index_by_task(*live);
  std::vector<EndedTask> ended;
  std::vector<std::string> cancel;
  bool changed = false;
  for (auto it = tracked_.begin(); it != tracked_.end();) {
    if (array && it->first.first != *array) {  // not asked about in this cycle
      ++it;
      continue;
    }
    const auto found = by_task.find(it->first);
    if (examine(it->second, found == by_task.end() ? nullptr : found->second, ended, cancel)) {
      it = tracked_.erase(it);
      changed = true;
    } else {
      ++it;
    }
  }
  db_.set_provenance(noted_);  // before any result: a result's own values replace these
  noted_.clear();
  scheduler_->cancel(cancel);
  finish_ended(ended);
  return changed;
}

}  // namespace sweep::runner
