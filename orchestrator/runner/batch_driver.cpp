// The batch campaign driver: the loop, reconciliation on resume, and submission of job arrays.
#include "runner/batch_driver.h"

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>

#include "runner/escalation.h"
#include "runner/ingest.h"
#include "runner/array_script.h"
#include "runner/batch_driver_impl.h"
#include "runner/adaptive.h"
#include "runner/run_root.h"
#include "runner/run_order.h"
#include "util/safe_files.h"
#include "util/error.h"
#include "util/strings.h"

namespace sweep::runner {
namespace fs = std::filesystem;

BatchDriver::BatchDriver(const RunOptions& options, CampaignPlan plan, Resolved resolved, store::Store& db,
                         const std::atomic<bool>& stop, std::unique_ptr<sched::Scheduler> scheduler, const Clock& clock)
    : options_(options), plan_(std::move(plan)), resolved_(std::move(resolved)), db_(db), stop_(stop),
      extractor_(extraction_rules(plan_.experiment())), scheduler_(std::move(scheduler)),
      backoff_(options.poll_min_s, options.poll_max_s), clock_(clock),
      progress_(stderr, options.progress       ? ProgressMode::terminal
                        : options.progress_log ? ProgressMode::log
                                               : ProgressMode::off) {}

BatchDriver::~BatchDriver() = default;

double BatchDriver::now() const { return std::chrono::duration<double>(clock_.steady().time_since_epoch()).count(); }

std::string BatchDriver::job_name(std::int64_t submission_id) const { return array_job_name(campaign_.label, submission_id); }

/// Counts per state: done and failed from the database (a failed run waiting for its retry counts as
/// remaining), running and queued as the scheduler last said, remaining the runs not yet submitted.
void BatchDriver::show_progress(bool force) {
  Counts c;
  std::size_t retrying = 0;
  for (const auto& r : queue_) retrying += r.state == store::RunState::failed;
  for (const auto& s : db_.state_counts(campaign_.id)) {
    if (s.state == store::RunState::succeeded) c.done = static_cast<std::size_t>(s.count);
    if (s.state == store::RunState::failed) c.failed = static_cast<std::size_t>(s.count);
  }
  c.failed -= std::min(c.failed, retrying);
  for (const auto& [key, t] : tracked_) c.running += t.started;
  std::size_t unconfirmed = 0;
  for (const auto& sub : unconfirmed_) unconfirmed += sub.tasks.size();
  c.queued = tracked_.size() - c.running + unconfirmed;
  c.remaining = queue_.size();
  progress_.update(c, finished_here_, force);
}

void BatchDriver::sleep_interruptibly(double seconds) const {
  const auto until = clock_.steady() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                          std::chrono::duration<double>(seconds));
  while (!stop_ && clock_.steady() < until) clock_.sleep_for(std::chrono::milliseconds(50));
}

// --- reconciliation -------------------------------------------------------------------------------

/// Settles a submission whose submit command never answered (the controller died, or the submission
/// failed transiently) from `live`, this user's jobs with its name: adopted when the scheduler has its
/// array, abandoned when neither it nor its completion log knows it. The caller first makes sure that
/// no submit command of the submission still runs (Scheduler::submitting_in), else the runs would be
/// submitted twice.
void BatchDriver::settle_submission(store::SubmissionRecord& sub, const std::vector<sched::JobRecord>& live) {
  const std::string name = job_name(sub.id);
  std::string found;
  for (const auto& j : live)
    if (j.name == name) found = j.array_job_id.empty() ? j.job_id : j.array_job_id;
  if (found.empty())
    for (const auto& j : scheduler_->completions())
      if (j.name == name) found = j.array_job_id.empty() ? j.job_id : j.array_job_id;
  if (found.empty()) {
    abandon_submission(sub, fmt::format("{} never confirmed it and {} has no job named {}", scheduler_->submit_command(),
                                        scheduler_->controller(), name));
    return;
  }
  db_.mark_submitted(sub.id, found, iso8601(clock_.wall()));
  sub.state = "submitted";
  sub.job_id = found;
  track(sub);
}

void BatchDriver::abandon_submission(const store::SubmissionRecord& sub, const std::string& why) {
  db_.mark_submission_failed(sub.id, why);
  for (const auto& t : sub.tasks) {
    record_failed_attempt(db_, clock_, t.run_id, t.attempt, failure::kInterrupted, "not submitted: " + why);
    for (const auto& run : db_.attempts(t.run_id))
      if (run.attempt == t.attempt) {
        store::RunRecord again = run;
        queue_.push_back(again);
      }
  }
}

void BatchDriver::track(const store::SubmissionRecord& sub) {
  for (const auto& t : sub.tasks) {
    const auto run = db_.attempts(t.run_id);
    if (run.empty() || run.back().attempt != t.attempt || run.back().state != store::RunState::running) continue;
    tracked_[{sub.job_id, t.task}] = TrackedTask{t.run_id, t.attempt, run.back().run_dir, sub.job_id, t.task, sub.id, 0, 0, 0};
  }
}

void BatchDriver::reconcile(bool rerun_failed) {
  for (auto& sub : db_.submissions(campaign_.id)) {
    if (sub.state == "submitted") track(sub);
    if (sub.state != "submitting") continue;
    for (;;) {
      // The submit command runs in the submission's directory: one left there by a killed controller
      // may still get through, so nothing is settled while it runs.
      if (!scheduler_->submitting_in(sub.dir))
        if (const auto live = scheduler_->own_jobs({job_name(sub.id)})) {
          settle_submission(sub, *live);
          break;
        }
      if (stop_) return;
      fmt::print(stderr, "sweep: submission {} is not settled yet (its {} is still running, or {} does not answer); "
                         "asking again\n", sub.id, scheduler_->submit_command(), scheduler_->controller());
      sleep_interruptibly(backoff_.interval());
      backoff_.after_cycle(false);
    }
  }
  std::set<std::int64_t> tracked_runs;
  for (const auto& [key, t] : tracked_) tracked_runs.insert(t.run_id);
  std::set<std::int64_t> queued;
  for (const auto& r : queue_) queued.insert(r.id);
  std::vector<store::RunRecord> again_runs;
  for (auto run : db_.runs(campaign_.id)) {
    if (tracked_runs.count(run.id) || queued.count(run.id) || run.state == store::RunState::succeeded) continue;
    if (run.state == store::RunState::running) {  // its submission failed or it never had one
      record_failed_attempt(db_, clock_, run.id, run.attempt, failure::kInterrupted,
                            "the controller stopped while this attempt was being submitted");
      run.state = store::RunState::failed;
      run.failure_class = failure::kInterrupted;
    }
    const bool again = run.state == store::RunState::pending || run.failure_class == failure::kInterrupted ||
                       rerun_failed || retry_allowed(plan_.experiment(), run.failure_class, db_.attempts(run.id));
    if (again) again_runs.push_back(run);
  }
  order_runs(again_runs, plan_.experiment().order);  // the tasks' order in their arrays (runner/run_order.h)
  queue_.insert(queue_.end(), again_runs.begin(), again_runs.end());
}

// --- submission -----------------------------------------------------------------------------------

/// The resources of attempt `attempt` of a run: its point's, escalated after the failures of its
/// earlier attempts (runner/escalation.h).
AttemptResources BatchDriver::resources_for(std::int64_t run_id, const std::string& point_id, int attempt) const {
  std::map<std::string, int> failures;
  if (!plan_.experiment().escalations.empty())
    for (const auto& a : db_.attempts(run_id))
      if (a.attempt < attempt && a.state == store::RunState::failed) ++failures[a.failure_class];
  auto base = plan_.resources(plan_.point(point_id));
  if (options_.timeout_s) base = with_time_limit(std::move(base), *options_.timeout_s);  // --timeout
  return attempt_resources(std::move(base), plan_.experiment().escalations, failures);
}

std::vector<std::string> BatchDriver::directives_for(std::int64_t run_id, const std::string& point_id, int attempt) const {
  return scheduler_->directives(resources_for(run_id, point_id, attempt).resources);
}

std::string BatchDriver::key(std::string_view name) const { return fmt::format("{}.{}", scheduler_->name(), name); }

/// The most of the campaign's tasks that may be queued at once: --max-queued, lowered to the user's
/// MaxSubmitJobs when the cluster sets one, and to what was queued when a submission was last refused
/// for a limit.
std::size_t BatchDriver::queue_room() {
  const sched::Limits limits = scheduler_->limits();
  std::size_t cap = options_.max_queued;
  if (limits.max_submit_jobs && *limits.max_submit_jobs < cap) {
    cap = *limits.max_submit_jobs;
    if (!reported_limit_)
      fmt::print(stderr, "sweep: the cluster lets this user queue at most {} jobs (MaxSubmitJobs); at most {} of this "
                         "campaign's tasks are queued at once\n", cap, cap);
    reported_limit_ = true;
  }
  if (refused_at_) cap = std::min(cap, *refused_at_);
  return cap > tracked_.size() ? cap - tracked_.size() : 0;
}

std::size_t BatchDriver::submit_more() {
  // After a refusal for a submit limit, try again once one of ours ended, or after a minute (the
  // user's other jobs count against the limit too).
  if (refused_at_ && (tracked_.size() < *refused_at_ || now() - refused_time_ >= 60)) refused_at_.reset();
  std::size_t room = queue_.empty() ? 0 : queue_room();
  std::size_t count = 0;
  // Group by resource shape, keeping queue order within each group.
  std::map<std::string, std::vector<store::RunRecord>> groups;
  std::vector<std::string> order;
  while (!queue_.empty() && room > 0 && !stop_) {
    store::RunRecord run = queue_.front();
    queue_.pop_front();
    const std::string shape = join(directives_for(run.id, run.point_id, run.attempt + 1), "\n");
    auto [it, fresh] = groups.try_emplace(shape);
    if (fresh) order.push_back(shape);
    it->second.push_back(std::move(run));
    --room;
    ++count;
  }
  const std::size_t per_array = scheduler_->limits().max_array_tasks;
  for (const auto& shape : order) {
    const auto& runs = groups[shape];
    for (std::size_t i = 0; i < runs.size(); i += per_array) {
      const std::vector<store::RunRecord> chunk(runs.begin() + static_cast<std::ptrdiff_t>(i),
                                                runs.begin() + static_cast<std::ptrdiff_t>(std::min(runs.size(), i + per_array)));
      if (refused_at_) {  // the cluster refused an earlier chunk for a limit: the rest waits too
        queue_.insert(queue_.end(), chunk.begin(), chunk.end());
        continue;
      }
      submit_group(chunk, shape);
    }
  }
  return count;
}

void BatchDriver::submit_group(const std::vector<store::RunRecord>& runs, const std::string& options_text) {
  std::vector<store::NewAttempt> attempts;
  for (const auto& run : runs) {
    const std::string dir = attempt_dir(campaign_.run_root, run, run.attempt + 1);
    make_attempt_directory(dir);
    const RunContext ctx{campaign_.label, run.id, run.repetition, run.attempt + 1, dir, campaign_.experiment_dir,
                         campaign_.launch_dir};
    write_script(dir + "/run.sh", plan_.render_script(plan_.point(run.point_id), ctx));
    attempts.push_back({run.id, dir});
  }
  const std::string stamp = compact_stamp(clock_.wall());
  std::string dir;
  for (int n = 0; dir.empty() || fs::exists(dir); ++n)
    dir = fmt::format("{}/.submissions/{}-{}", campaign_.run_root, stamp, n);
  make_directories(campaign_.run_root + "/.submissions");  // inside the claimed run root
  make_new_directory(dir, "submission directory");
  store::SubmissionRecord sub = db_.begin_submission(campaign_.id, dir, iso8601(clock_.wall()), attempts);
  std::vector<store::AttemptValue> asked;  // each attempt's directives as submitted (--timeout is this invocation's)
  for (const auto& t : sub.tasks) asked.push_back({t.run_id, t.attempt, key("options"), join(split(options_text, '\n'), " ")});
  db_.set_provenance(asked);
  const sched::SubmitResult result = scheduler_->submit(write_array_script(sub, attempts, options_text), dir, resolved_.secrets.env);
  settle_submit(std::move(sub), result);
}

/// What a submit's answer means for its submission: tracked, waiting for room, asked about again next
/// cycle (it may have got through), or failed as `submit` with the scheduler's message.
void BatchDriver::settle_submit(store::SubmissionRecord sub, const sched::SubmitResult& result) {
  if (result.ok()) {
    db_.mark_submitted(sub.id, result.job_id, iso8601(clock_.wall()));
    std::vector<store::AttemptValue> queued;  // `sweep status` right after --detach: queued until a poll says more
    for (const auto& t : sub.tasks) queued.push_back({t.run_id, t.attempt, key("phase"), "queued"});
    db_.set_provenance(queued);
    sub.state = "submitted";
    sub.job_id = result.job_id;
    track(sub);
    submitted_ += sub.tasks.size();
  } else if (result.limit) {  // not these runs' fault: they wait for room
    fmt::print(stderr, "sweep: {} refused more jobs ({}); waiting until some of this campaign's {} queued tasks end\n",
               scheduler_->submit_command(), result.error, tracked_.size());
    abandon_submission(sub, "the cluster's submit limit was reached (" + result.error + ")");
    refused_at_ = tracked_.size();
    refused_time_ = now();
  } else if (result.transient) {  // it may or may not have got through: ask again next cycle
    fmt::print(stderr, "sweep: {} failed ({}); checking again shortly\n", scheduler_->submit_command(), result.error);
    unconfirmed_.push_back(std::move(sub));
  } else {
    db_.mark_submission_failed(sub.id, result.error);
    for (const auto& t : sub.tasks) {
      const auto r = record_failed_attempt(db_, clock_, t.run_id, t.attempt, failure::kSubmit,
                                           fmt::format("{} refused the job: {}", scheduler_->submit_command(), result.error));
      after_failure(t.run_id, t.attempt, r);
    }
  }
}

/// Writes the submission's task table, task-<i> links to the run directories (the scheduler writes each
/// task's output through them) and array script. Returns the script's path.
std::string BatchDriver::write_array_script(const store::SubmissionRecord& sub,
                                            const std::vector<store::NewAttempt>& attempts,
                                            const std::string& options_text) const {
  const std::string& dir = sub.dir;
  std::vector<TaskRow> rows;
  for (std::size_t i = 0; i < sub.tasks.size(); ++i) {
    rows.push_back({sub.tasks[i].task, attempts[i].run_dir, sub.tasks[i].run_id, sub.tasks[i].attempt});
    fs::create_directory_symlink(attempts[i].run_dir, fmt::format("{}/task-{}", dir, sub.tasks[i].task));
  }
  write_text(dir + "/tasks.tsv", task_table(rows));
  const templating::Variables vars =
      array_variables(campaign_.label, sub.id, dir, sub.tasks.size(), options_.max_running, scheduler_->directive_prefix(),
                      split(options_text, '\n'));
  write_script(dir + "/array.sh", plan_.array_script().render(vars, templating::Escape::shell));
  return dir + "/array.sh";
}

void BatchDriver::cancel_all() {
  std::set<std::string> ids;
  for (const auto& [key, t] : tracked_) ids.insert(t.array_job_id);
  for (int tries = 0; !scheduler_->cancel({ids.begin(), ids.end()}); ++tries) {
    if (tries == 5)
      throw Error(ErrorKind::io, fmt::format("cancelling failed: cannot reach {}; nothing was recorded, try again",
                                             scheduler_->controller()));
    sleep_interruptibly(backoff_.interval());
    backoff_.after_cycle(false);
  }
  cancelled_arrays_ = ids.size();
  cancelled_tasks_ = tracked_.size();
  for (const auto& [key, t] : tracked_) {
    record_failed_attempt(db_, clock_, t.run_id, t.attempt, failure::kCancelled,
                          fmt::format("cancelled by sweep cancel (job {}_{})", t.array_job_id, t.task));
  }
  tracked_.clear();
  // Runs not submitted yet (held back by --max-queued or a submit limit) are cancelled too: a later
  // `sweep collect` (from cron) must not submit what the user cancelled. `run --resume` reruns them.
  for (const auto& run : queue_) {
    const std::string dir = attempt_dir(campaign_.run_root, run, run.attempt + 1);
    make_attempt_directory(dir);
    const int attempt = db_.begin_attempt(run.id, dir, iso8601(clock_.wall()));
    record_failed_attempt(db_, clock_, run.id, attempt, failure::kCancelled, "cancelled by sweep cancel before it was submitted");
  }
  cancelled_unsubmitted_ = queue_.size();
  queue_.clear();
}

// --- the loop -------------------------------------------------------------------------------------

RunSummary BatchDriver::run(BatchMode mode) {
  if (!scheduler_->installed()) throw Error(ErrorKind::usage, scheduler_->install_hint());
  wait_for_accounting_ = mode == BatchMode::run;  // a one-pass collect or cancel takes what is known now
  campaign_ = open_campaign(db_, options_, resolved_, plan_, clock_, lock_);  // the controller lock held from here
  // Like the local executor, running again (attached or --detach) reruns failures; collect only when asked.
  reconcile(mode == BatchMode::collect ? options_.collect_reruns_failed : mode != BatchMode::cancel && options_.rerun_failed);
  if (mode == BatchMode::cancel) {
    poll_every_array();  // what already ended is ingested, not recorded as cancelled
    cancel_all();
    RunSummary s = summarize(db_, campaign_, 0, false);
    s.batch = true;
    s.cancelled_arrays = cancelled_arrays_;
    s.cancelled_tasks = cancelled_tasks_;
    s.cancelled_unsubmitted = cancelled_unsubmitted_;
    return s;
  }
  if (mode == BatchMode::collect) poll_every_array();
  if (!campaign_.ended_at.empty() && !queue_.empty()) db_.end_campaign(campaign_.id, "");  // it runs again
  while (!stop_) {
    if (tracked_.empty() && queue_.empty() && unconfirmed_.empty()) {  // every run ended: more repetitions?
      std::vector<store::RunRecord> added = extend_campaign(db_, campaign_.id, plan_.experiment());
      order_runs(added, plan_.experiment().order);
      queue_.insert(queue_.end(), added.begin(), added.end());
    }
    submit_more();
    if (mode != BatchMode::run) break;
    show_progress(false);
    if (tracked_.empty() && queue_.empty() && unconfirmed_.empty()) break;
    sleep_interruptibly(backoff_.interval());
    if (stop_) break;
    backoff_.after_cycle(poll());
  }
  if (mode == BatchMode::run) {
    show_progress(true);
    progress_.finish();
  }
  RunSummary s = summarize(db_, campaign_, submitted_, stop_.load());
  s.repetitions = repetitions_summary(db_, campaign_.id, plan_.experiment());
  s.polls = polls_;
  s.queries = scheduler_->queries();
  s.batch = true;
  s.on_scheduler = tracked_.size();
  if (s.unfinished == 0 && !stop_) db_.end_campaign(campaign_.id, iso8601(clock_.wall()));
  return s;
}

RunSummary run_batch_campaign(const RunOptions& options, CampaignPlan plan, Resolved resolved, store::Store& db,
                              const std::atomic<bool>& stop, BatchMode mode, std::unique_ptr<sched::Scheduler> scheduler) {
  const SystemClock clock;
  return run_batch_campaign(options, std::move(plan), std::move(resolved), db, stop, mode, std::move(scheduler), clock);
}

RunSummary run_batch_campaign(const RunOptions& options, CampaignPlan plan, Resolved resolved, store::Store& db,
                              const std::atomic<bool>& stop, BatchMode mode, std::unique_ptr<sched::Scheduler> scheduler,
                              const Clock& clock) {
  BatchDriver driver(options, std::move(plan), std::move(resolved), db, stop, std::move(scheduler), clock);
  return driver.run(mode);
}

}  // namespace sweep::runner
