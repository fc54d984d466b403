#include "runner/run_campaign.h"

#include <fmt/core.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>

#include "exec/local_executor.h"
#include "exec/orphans.h"
#include "parse/extract.h"
#include "runner/adaptive.h"
#include "runner/job_usage.h"
#include "runner/campaign_plan.h"
#include "runner/campaign_setup.h"
#include "runner/controller_lock.h"
#include "runner/dry_run.h"
#include "runner/array_script.h"
#include "runner/batch_driver.h"
#include "runner/executors.h"
#include "runner/ingest.h"
#include "runner/local_gpus.h"
#include "runner/progress.h"
#include "runner/nic_sampling.h"
#include "runner/run_order.h"
#include "runner/run_root.h"
#include "runner/provenance.h"
#include "sched/executors.h"
#include "store/database_path.h"
#include "store/store.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/names.h"
#include "util/safe_files.h"
#include "util/sha256.h"
#include "util/strings.h"
#include "util/version.h"

namespace sweep::runner {
namespace fs = std::filesystem;

namespace {

/// This machine's facts with its GPUs, NCCL and network interfaces (runner/provenance.h): the provenance of every local run.
HostFacts local_host_facts() {
  HostFacts facts = host_facts();
  for (auto& kv : gpu_host_facts()) facts.run_provenance.push_back(std::move(kv));
  for (auto& kv : nccl_host_facts()) facts.run_provenance.push_back(std::move(kv));
  for (auto& kv : nic_host_facts()) facts.run_provenance.push_back(std::move(kv));
  return facts;
}

}  // namespace

/// One invocation of `sweep run`: owns the store, the executor and the queue of runs to start.
class CampaignRunner {
 public:
  CampaignRunner(const RunOptions& options, CampaignPlan plan, Resolved resolved, store::Store& db, LocalGpus gpus)
      : options_(options), plan_(std::move(plan)), resolved_(std::move(resolved)), db_(db),
        extractor_(extraction_rules(plan_.experiment())),
        executor_(std::max<std::size_t>(1, options.jobs)),
        progress_(stderr, options.progress       ? ProgressMode::terminal
                          : options.progress_log ? ProgressMode::log
                                                 : ProgressMode::off),
        gpus_(std::move(gpus)) {}

  RunSummary run();

 private:
  void open_campaign();
  void reconcile_interrupted();
  void drain();
  bool can_start() const;
  void start_next();
  std::string prepare(const store::RunRecord& run, int attempt);
  void prepare_next();
  void finish(const exec::Outcome& outcome);
  void record_failure(std::int64_t run_id, int attempt, std::string_view cls, const std::string& reason);
  Counts counts() const;

  const RunOptions& options_;
  CampaignPlan plan_;
  Resolved resolved_;
  store::Store& db_;
  parse::Extractor extractor_;
  exec::LocalExecutor executor_;
  Progress progress_;
  SystemClock clock_;
  HostFacts host_ = local_host_facts();
  LocalGpus gpus_;  // each run's own GPUs, when the experiment asks for them (runner/local_gpus.h)

  std::optional<ControllerLock> lock_;  // taken by open_campaign, held until the campaign's runner ends
  store::CampaignRecord campaign_;
  std::deque<store::RunRecord> queue_;
  struct Active {
    store::RunRecord run;
    int attempt;
    std::string dir;
    std::vector<std::string> gpus;  // held from start to finish
  };
  std::map<std::string, Active> active_;  // by job id
  /// The directory of the run at the front of the queue, made while the runs before it execute.
  struct Prepared {
    std::int64_t run_id;
    int attempt;
    std::string dir;
  };
  std::optional<Prepared> prepared_;
  std::size_t done_ = 0, failed_ = 0, executed_ = 0, finished_here_ = 0;
};


void CampaignRunner::open_campaign() { campaign_ = runner::open_campaign(db_, options_, resolved_, plan_, clock_, lock_); }

void CampaignRunner::record_failure(std::int64_t run_id, int attempt, std::string_view cls, const std::string& reason) {
  record_failed_attempt(db_, clock_, run_id, attempt, cls, reason);
}

void CampaignRunner::reconcile_interrupted() {
  for (auto run : db_.runs(campaign_.id)) {
    if (run.state == store::RunState::running) {
      exec::kill_job_leftovers(run.run_dir);  // whatever the dead controller left running
      if (const auto code = recorded_exit_code(run.run_dir)) {
        // The workload finished but its result was never recorded: ingest it instead of rerunning.
        store::AttemptResult result =
            ingest(exec::Outcome{"", *code, 0, false, 0}, run.run_dir, extractor_, plan_.experiment().success,
                   nic_counters_on(plan_.experiment().network), plan_.experiment().telemetry.enabled);
        result.elapsed_s.reset();
        result.ended_at = iso8601(clock_.wall());
        db_.finish_attempt(run.id, run.attempt, result);
        run.state = result.state;
      } else {
        record_failure(run.id, run.attempt, failure::kInterrupted,
                       "the controller stopped while this attempt was running");
      }
    }
    if (run.state == store::RunState::succeeded) ++done_;
    else if (run.state == store::RunState::failed && !options_.rerun_failed && run.failure_class != failure::kInterrupted) ++failed_;
    else queue_.push_back(run);
  }
  order_runs(queue_, plan_.experiment().order);
}

/// The attempt's directory with its job script and the empty files the job writes (stdout, stderr,
/// exit_code: an empty exit_code reads as absent), made ahead when prepare_next() already did.
/// Making it before the attempt is recorded is safe: a controller killed in between leaves a
/// directory that the same attempt of the same run makes again (runner/run_root.h). The directory
/// and its files are made new, writable by the user alone, so the script prepared early cannot be
/// swapped by another user before it runs.
std::string CampaignRunner::prepare(const store::RunRecord& run, int attempt) {
  if (prepared_ && prepared_->run_id == run.id && prepared_->attempt == attempt) {
    std::string dir = std::move(prepared_->dir);
    prepared_.reset();
    return dir;
  }
  const std::string dir = attempt_dir(campaign_.run_root, run, attempt);
  make_attempt_directory(dir);
  const RunContext ctx{campaign_.label, run.id, run.repetition, attempt, dir, campaign_.experiment_dir,
                       campaign_.launch_dir};
  write_new_file(dir + "/run.sh", plan_.render_script(plan_.point(run.point_id), ctx), 0755);
  for (const char* file : {"/stdout", "/stderr", "/exit_code"}) write_new_file(dir + file, "", 0644);
  return dir;
}

/// Prepares the next queued run while the started ones execute, so that its files are not made on
/// the path from one run's end to the next one's start.
void CampaignRunner::prepare_next() {
  if (queue_.empty() || stop_requested()) return;
  const store::RunRecord& run = queue_.front();
  if (prepared_ && prepared_->run_id == run.id && prepared_->attempt == run.attempt + 1) return;
  prepared_.reset();
  std::string dir = prepare(run, run.attempt + 1);
  prepared_ = Prepared{run.id, run.attempt + 1, std::move(dir)};
}

/// Whether the run at the front of the queue may start now: a job slot is free and, when its point
/// asks for GPUs, that many are free (it waits for them: runs start in the campaign's order).
bool CampaignRunner::can_start() const {
  if (queue_.empty() || executor_.capacity() == 0 || stop_requested()) return false;
  if (!gpus_.slots) return true;
  const auto it = gpus_.demand.find(queue_.front().point_id);
  return it == gpus_.demand.end() || gpus_.slots->free() >= it->second;
}

void CampaignRunner::start_next() {
  store::RunRecord run = queue_.front();
  queue_.pop_front();
  const int attempt = run.attempt + 1;
  const std::string dir = prepare(run, attempt);
  std::vector<std::string> gpus;
  if (const auto it = gpus_.demand.find(run.point_id); it != gpus_.demand.end()) gpus = gpus_.slots->take(it->second).value();
  const int recorded = db_.begin_attempt(run.id, dir, iso8601(clock_.wall()));
  const std::string job_id = std::to_string(run.id);
  try {
    const auto timeout = options_.timeout_s ? options_.timeout_s : plan_.timeout_s(plan_.point(run.point_id));
    exec::Job job{job_id, dir + "/run.sh", dir, timeout, {{exec::kJobMarker, dir}}};
    if (gpus_.slots) job.env.emplace_back("CUDA_VISIBLE_DEVICES", cuda_visible_devices(gpus));
    job.env.insert(job.env.end(), resolved_.secrets.env.begin(), resolved_.secrets.env.end());
    executor_.start(job);
  } catch (const Error& e) {
    if (gpus_.slots) gpus_.slots->give_back(gpus);
    record_failure(run.id, recorded, failure::kSpawn, e.message());
    ++failed_;
    return;
  }
  ++executed_;
  active_.emplace(job_id, Active{std::move(run), recorded, dir, std::move(gpus)});
}

void CampaignRunner::finish(const exec::Outcome& outcome) {
  auto it = active_.find(outcome.id);
  if (it == active_.end()) throw Error(ErrorKind::internal, "executor returned an unknown job " + outcome.id);
  const Active a = std::move(it->second);
  active_.erase(it);
  if (gpus_.slots) gpus_.slots->give_back(a.gpus);
  ++finished_here_;
  if (stop_requested()) {
    record_failure(a.run.id, a.attempt, failure::kInterrupted, "cancelled when sweep was asked to stop");
    return;
  }
  store::AttemptResult result = ingest(outcome, a.dir, extractor_, plan_.experiment().success, nic_counters_on(plan_.experiment().network),
                                       plan_.experiment().telemetry.enabled);
  result.ended_at = iso8601(clock_.wall());
  result.provenance.insert(result.provenance.end(), host_.run_provenance.begin(), host_.run_provenance.end());
  if (gpus_.slots) result.provenance.emplace_back("local.cuda_visible_devices", cuda_visible_devices(a.gpus));
  result.provenance.emplace_back(store::kGpusRequestedKey, plan_.gpus_requested(plan_.point(a.run.point_id)));
  for (auto& kv : requested_provenance(plan_.resources(plan_.point(a.run.point_id))))
    result.provenance.push_back(std::move(kv));
  db_.finish_attempt(a.run.id, a.attempt, result);
  if (result.state == store::RunState::failed &&
      retry_allowed(plan_.experiment(), result.failure_class, db_.attempts(a.run.id))) {
    store::RunRecord again = a.run;
    again.attempt = a.attempt;
    queue_.push_back(again);
    return;
  }
  ++(result.state == store::RunState::succeeded ? done_ : failed_);
}

Counts CampaignRunner::counts() const { return Counts{done_, failed_, active_.size(), queue_.size(), std::nullopt}; }

void CampaignRunner::drain() {
  while (!queue_.empty() || executor_.active() > 0) {
    if (stop_requested()) {
      executor_.cancel_all();
      for (const auto& o : executor_.wait(std::chrono::milliseconds(0))) finish(o);
      if (executor_.active() == 0) break;
      continue;
    }
    while (can_start()) start_next();
    prepare_next();
    const std::vector<exec::Outcome> ended = executor_.wait(std::chrono::milliseconds(250));
    // The next runs start before the ended ones are ingested, so ingesting overlaps their execution.
    while (can_start()) start_next();
    for (const auto& o : ended) finish(o);
    progress_.update(counts(), finished_here_);
  }
}

RunSummary CampaignRunner::run() {
  open_campaign();  // holds the controller lock from here: before touching any run
  reconcile_interrupted();
  for (;;) {
    drain();
    if (stop_requested()) break;
    std::vector<store::RunRecord> added = extend_campaign(db_, campaign_.id, plan_.experiment());
    if (added.empty()) break;
    order_runs(added, plan_.experiment().order);
    queue_.insert(queue_.end(), added.begin(), added.end());
  }
  progress_.update(counts(), finished_here_, true);
  progress_.finish();

  RunSummary summary = summarize(db_, campaign_, executed_, stop_requested());
  summary.repetitions = repetitions_summary(db_, campaign_.id, plan_.experiment());
  if (!summary.interrupted) db_.end_campaign(campaign_.id, iso8601(clock_.wall()));
  return summary;
}

namespace {

/// Where open_campaign (campaign_setup.cpp) will put a new campaign `resolved` of `options`.
PlanDirs new_campaign_dirs(const RunOptions& options, const Resolved& resolved) {
  const fs::path results_dir = options.results_dir.empty() ? "." : options.results_dir;
  return {fs::absolute(results_dir / resolved.label).lexically_normal().string(),
          fs::absolute(resolved.experiment.path).parent_path().lexically_normal().string(),
          fs::current_path().string()};
}

/// collect and cancel: the campaign comes from the database and must use a batch executor.
RunSummary drive_existing(const RunOptions& options, BatchMode mode) {
  SystemClock clock;
  const std::string db_path = store::database_path(options.results_dir, options.db_path);
  if (!std::filesystem::exists(db_path))
    throw Error(ErrorKind::not_found, fmt::format("no results database at {}", db_path));
  store::Store db(db_path);
  Resolved resolved = resolve(options, &db, clock);
  for (const std::string& note : resolved.notes) fmt::print(stderr, "sweep: {}\n", note);
  if (!sched::is_batch(resolved.experiment.executor))
    throw Error(ErrorKind::usage, fmt::format("campaign \"{}\" uses the {} executor; collect and cancel are for "
                                              "batch campaigns such as slurm (resume a local one with sweep run --resume {})",
                                              resolved.label, resolved.experiment.executor, resolved.label));
  // The campaign's points are recorded: the limit on a new campaign's points is not for it.
  CampaignPlan plan(resolved.experiment, resolved.template_dir, PlanUse::run, UINT64_MAX);
  if (mode == BatchMode::collect) {  // it may submit retries and queued runs, which need the secrets as run's did
    resolved.secrets = resolve_secrets(resolved.experiment, process_environment());
    db.mask_secrets(resolved.secrets.masker);
  }
  const std::string executor = resolved.experiment.executor;
  return run_batch_campaign(options, std::move(plan), std::move(resolved), db, stop_flag(), mode, make_scheduler(executor));
}

}  // namespace

RunSummary collect_campaign(const RunOptions& options) { return drive_existing(options, BatchMode::collect); }

RunSummary cancel_campaign(const RunOptions& options) { return drive_existing(options, BatchMode::cancel); }

RunSummary run_more(RunOptions options, const std::string& label, const std::vector<std::pair<std::string, int>>& more) {
  const std::string db_path = store::database_path(options.results_dir, options.db_path);
  {
    store::Store db(db_path);
    const auto campaign = db.find_campaign(label);
    if (!campaign) throw Error(ErrorKind::not_found, fmt::format("no campaign labelled \"{}\" in {}", label, db_path));
    require_local_campaign(*campaign, "add runs to");
    const ControllerLock lock(campaign->run_root, label);  // refused while another controller drives it
    db.add_runs(campaign->id, more);
  }
  options.resume = label;
  options.experiment_path.clear();
  options.overrides.clear();
  options.detach = false;
  options.rerun_failed = false;  // only the runs added here: the budget is theirs
  return run_campaign(options);
}

CampaignPlan checked_plan(spec::Experiment experiment, const std::string& template_dir, PlanUse use,
                          std::uint64_t max_points, const PlanDirs& dirs) {
  CampaignPlan plan(std::move(experiment), template_dir, use, max_points, dirs);
  // The metric rules compile here, before anything is written (the drivers compile their own).
  parse::Extractor{extraction_rules(plan.experiment())};
  // `escalate` grows only a batch executor's retries (runner/batch_driver.cpp): elsewhere said, not refused.
  if (const spec::Experiment& e = plan.experiment(); !sched::is_batch(e.executor))
    for (const spec::Escalation& x : e.escalations)
      fmt::print(stderr, "sweep: {}: warning: \"escalate.{}\" does nothing on the {} executor, whose retries ask for the "
                         "same resources (escalate is for Slurm): raise the request itself\n", x.where.str(), x.resource, e.executor);
  return plan;
}

CampaignPlan plan_campaign(const RunOptions& options, PlanUse use) {
  SystemClock clock;
  Resolved resolved = resolve(options, nullptr, clock);
  const PlanDirs dirs = new_campaign_dirs(options, resolved);
  CampaignPlan plan = checked_plan(std::move(resolved.experiment), options.template_dir, use,
                                   matrix::kDefaultMaxPoints, dirs);
  if (options.check_report) options.check_report(plan.experiment(), plan.schema().names);
  return plan;
}

RunSummary run_campaign(const RunOptions& options) {
  SystemClock clock;
  const std::string db_path = store::database_path(options.results_dir, options.db_path);
  std::unique_ptr<store::Store> db;
  if (!options.resume.empty()) db = std::make_unique<store::Store>(db_path);
  Resolved resolved = resolve(options, db.get(), clock);
  for (const std::string& note : resolved.notes) fmt::print(stderr, "sweep: {}\n", note);
  // A resumed campaign was accepted when it was made: its points are recorded, and the limit is for typos.
  CampaignPlan plan = checked_plan(resolved.experiment, resolved.template_dir, PlanUse::run,
                                   options.resume.empty() ? options.max_points : UINT64_MAX,
                                   options.resume.empty() ? new_campaign_dirs(options, resolved) : PlanDirs{});
  resolved.secrets = resolve_secrets(resolved.experiment, process_environment());
  for (const std::string& warning : secret_warnings(resolved.experiment)) fmt::print(stderr, "sweep: {}\n", warning);
  if (options.check_report && options.resume.empty()) options.check_report(plan.experiment(), plan.schema().names);
  if (options.forecast && options.resume.empty()) resolved.forecast = options.forecast(plan);  // may refuse (a budget)
  if (options.dry_run) return dry_run(options, plan, resolved.label);
  if (options.detach && !sched::is_batch(plan.experiment().executor)) {
    // Run from cron, the usual cause is a site file not found: say so, and where sweep looked.
    const std::string no_site = spec::site_absence_note(options.site);
    throw Error(ErrorKind::usage, fmt::format("--detach needs a batch executor (this campaign uses {}{}); {}use --executor {}",
                                              plan.experiment().executor,
                                              plan.experiment().executor_where.file.empty() ? ", the default" : "",
                                              no_site.empty() ? "" : no_site + "; or ", sched::batch_names()));
  }

  LocalGpus gpus;  // refused here, before anything is written, when a point asks for more GPUs than exist
  if (!sched::is_batch(plan.experiment().executor)) gpus = local_gpus(plan);
  throw_if_stopped("planning the campaign");  // the last moment at which stopping leaves nothing behind
  make_directories(fs::path(db_path).parent_path().empty() ? "." : fs::path(db_path).parent_path().string());
  if (!db) db = std::make_unique<store::Store>(db_path);
  db->mask_secrets(resolved.secrets.masker);
  if (sched::is_batch(plan.experiment().executor)) {
    const std::string executor = plan.experiment().executor;
    return run_batch_campaign(options, std::move(plan), std::move(resolved), *db, stop_flag(),
                              options.detach ? BatchMode::detach : BatchMode::run, make_scheduler(executor));
  }
  CampaignRunner runner(options, std::move(plan), std::move(resolved), *db, std::move(gpus));
  return runner.run();
}

}  // namespace sweep::runner
