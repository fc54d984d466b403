#include "runner/run_campaign.h"

#include <fmt/core.h>

#include <atomic>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>

#include "exec/local_executor.h"
#include "exec/orphans.h"
#include "parse/extract.h"
#include "runner/campaign_plan.h"
#include "runner/ingest.h"
#include "runner/progress.h"
#include "runner/provenance.h"
#include "store/store.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/names.h"
#include "util/sha256.h"
#include "util/version.h"

namespace sweep::runner {
namespace fs = std::filesystem;

namespace {

std::atomic<bool> g_stop{false};

std::string overrides_text(const std::vector<spec::Override>& overrides) {
  std::string out;
  for (const auto& o : overrides) out += o.key + "=" + o.value + "\n";
  return out;
}

std::vector<spec::Override> parse_overrides_text(const std::string& text) {
  std::vector<spec::Override> out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end - start);
    const std::size_t eq = line.find('=');
    if (eq != std::string::npos) out.push_back({line.substr(0, eq), line.substr(eq + 1)});
    start = end == std::string::npos ? text.size() : end + 1;
  }
  return out;
}

std::vector<parse::Rule> extraction_rules(const spec::Experiment& e) {
  std::vector<parse::Rule> rules;
  for (const auto& m : e.metrics)
    rules.push_back({m.name, m.unit, m.better,
                     m.kind == spec::MetricRule::Kind::regex ? parse::Rule::Kind::regex : parse::Rule::Kind::json,
                     m.pattern, m.source, m.where});
  return rules;
}

/// The experiment and identity of the campaign to run: from the file, or from the database on resume.
struct Resolved {
  spec::Experiment experiment;
  std::string label;
  std::string overrides;
};

Resolved resolve(const RunOptions& o, store::Store* db, const SystemClock& clock) {
  if (!o.resume.empty()) {
    const auto c = db ? db->find_campaign(o.resume) : std::nullopt;
    if (!c) throw Error(ErrorKind::not_found, fmt::format("no campaign labelled \"{}\" in {}", o.resume, db ? db->path() : o.db_path));
    return {spec::load_text(c->spec_text, c->spec_path, parse_overrides_text(c->overrides)), c->label, c->overrides};
  }
  Resolved r{spec::load_file(o.experiment_path, o.overrides), o.label, overrides_text(o.overrides)};
  if (r.label.empty()) r.label = r.experiment.name + "-" + compact_stamp(clock.wall());
  require_safe_name(r.label, "campaign label");
  return r;
}

}  // namespace

void request_stop() { g_stop = true; }

/// One invocation of `sweep run`: owns the store, the executor and the queue of runs to start.
class CampaignRunner {
 public:
  CampaignRunner(const RunOptions& options, CampaignPlan plan, Resolved resolved, store::Store& db)
      : options_(options), plan_(std::move(plan)), resolved_(std::move(resolved)), db_(db),
        extractor_(extraction_rules(plan_.experiment())),
        executor_(std::max<std::size_t>(1, options.jobs)),
        progress_(stderr, options.progress) {}

  RunSummary run();

 private:
  void open_campaign();
  void reconcile_interrupted();
  void start_next();
  void finish(const exec::Outcome& outcome);
  void record_failure(std::int64_t run_id, int attempt, const char* cls, const std::string& reason);
  Counts counts() const;

  const RunOptions& options_;
  CampaignPlan plan_;
  Resolved resolved_;
  store::Store& db_;
  parse::Extractor extractor_;
  exec::LocalExecutor executor_;
  Progress progress_;
  SystemClock clock_;
  HostFacts host_ = host_facts();

  store::CampaignRecord campaign_;
  std::deque<store::RunRecord> queue_;
  struct Active {
    store::RunRecord run;
    int attempt;
    std::string dir;
  };
  std::map<std::string, Active> active_;  // by job id
  std::size_t done_ = 0, failed_ = 0, executed_ = 0, finished_here_ = 0;
};


namespace {

std::string attempt_dir(const std::string& run_root, const store::RunRecord& run, int attempt) {
  return fmt::format("{}/{}/rep{}/attempt{}", run_root, run.point_id, run.repetition, attempt);
}

void write_script(const std::string& path, const std::string& text) {
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw Error(ErrorKind::io, fmt::format("cannot write job script {}", path));
  }
  fs::permissions(path, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                            fs::perms::others_read | fs::perms::others_exec);
}

}  // namespace


void CampaignRunner::open_campaign() {
  const auto& e = plan_.experiment();
  if (auto existing = db_.find_campaign(resolved_.label)) {
    if (options_.resume.empty() &&
        (existing->spec_hash != sha256_hex(e.text) || existing->overrides != resolved_.overrides))
      throw Error(ErrorKind::usage,
                  fmt::format("campaign \"{}\" already exists with a different experiment or --set values; "
                              "resume it with --resume {} or choose another --label",
                              resolved_.label, resolved_.label));
    campaign_ = *existing;
    for (const auto& p : db_.points(campaign_.id)) plan_.point(p.point_id);  // same points, or Error
    return;
  }
  const auto git = git_state(fs::absolute(e.path).parent_path().string());
  campaign_.label = resolved_.label;
  campaign_.experiment = e.name;
  campaign_.spec_path = e.path;
  campaign_.spec_text = e.text;
  campaign_.spec_hash = sha256_hex(e.text);
  campaign_.overrides = resolved_.overrides;
  campaign_.executor = e.executor;
  campaign_.repetitions = e.repetitions;
  campaign_.started_at = iso8601(clock_.wall());
  campaign_.host = host_.hostname;
  campaign_.user = host_.user;
  campaign_.tool_version = kToolVersion;
  campaign_.git_commit = git.commit;
  campaign_.git_dirty = git.dirty;
  campaign_.run_root = fs::absolute(fs::path(options_.results_dir) / resolved_.label).lexically_normal().string();
  campaign_.id = db_.create_campaign(campaign_, plan_.point_records());
}

void CampaignRunner::record_failure(std::int64_t run_id, int attempt, const char* cls, const std::string& reason) {
  store::AttemptResult r;
  r.state = store::RunState::failed;
  r.failure_class = cls;
  r.failure_reason = reason;
  r.ended_at = iso8601(clock_.wall());
  db_.finish_attempt(run_id, attempt, r);
}

namespace {

/// The exit status a job script wrote to <run_dir>/exit_code when its workload ended, if it did.
std::optional<int> recorded_exit_code(const std::string& run_dir) {
  std::ifstream in(run_dir + "/exit_code");
  int code = -1;
  if (in >> code) return code;
  return std::nullopt;
}

}  // namespace

void CampaignRunner::reconcile_interrupted() {
  for (auto run : db_.runs(campaign_.id)) {
    if (run.state == store::RunState::running) {
      exec::kill_job_leftovers(run.run_dir);  // whatever the dead controller left running
      if (const auto code = recorded_exit_code(run.run_dir)) {
        // The workload finished but its result was never recorded: ingest it instead of rerunning.
        store::AttemptResult result =
            ingest(exec::Outcome{"", *code, 0, false, 0}, run.run_dir, extractor_, plan_.experiment().success);
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
    else queue_.push_back(run);
  }
}

void CampaignRunner::start_next() {
  store::RunRecord run = queue_.front();
  queue_.pop_front();
  const int attempt = run.attempt + 1;
  const std::string dir = attempt_dir(campaign_.run_root, run, attempt);
  fs::create_directories(dir);
  const RunContext ctx{campaign_.label, run.id, run.repetition, attempt, dir};
  write_script(dir + "/run.sh", plan_.render_script(plan_.point(run.point_id), ctx));
  const int recorded = db_.begin_attempt(run.id, dir, iso8601(clock_.wall()));
  const std::string job_id = std::to_string(run.id);
  try {
    const auto timeout = options_.timeout_s ? options_.timeout_s : plan_.experiment().timeout_s;
    executor_.start(exec::Job{job_id, dir + "/run.sh", dir, timeout, {{exec::kJobMarker, dir}}});
  } catch (const Error& e) {
    record_failure(run.id, recorded, failure::kSpawn, e.message());
    ++failed_;
    return;
  }
  ++executed_;
  active_.emplace(job_id, Active{std::move(run), recorded, dir});
}

void CampaignRunner::finish(const exec::Outcome& outcome) {
  auto it = active_.find(outcome.id);
  if (it == active_.end()) throw Error(ErrorKind::internal, "executor returned an unknown job " + outcome.id);
  const Active a = std::move(it->second);
  active_.erase(it);
  ++finished_here_;
  if (g_stop) {
    record_failure(a.run.id, a.attempt, failure::kInterrupted, "cancelled when sweep was asked to stop");
    return;
  }
  store::AttemptResult result = ingest(outcome, a.dir, extractor_, plan_.experiment().success);
  result.ended_at = iso8601(clock_.wall());
  result.provenance.insert(result.provenance.end(), host_.run_provenance.begin(), host_.run_provenance.end());
  db_.finish_attempt(a.run.id, a.attempt, result);
  ++(result.state == store::RunState::succeeded ? done_ : failed_);
}

Counts CampaignRunner::counts() const { return Counts{done_, failed_, active_.size(), queue_.size()}; }

RunSummary CampaignRunner::run() {
  open_campaign();
  reconcile_interrupted();
  while (!queue_.empty() || executor_.active() > 0) {
    if (g_stop) {
      executor_.cancel_all();
      for (const auto& o : executor_.wait(std::chrono::milliseconds(0))) finish(o);
      if (executor_.active() == 0) break;
      continue;
    }
    while (!queue_.empty() && executor_.capacity() > 0 && !g_stop) start_next();
    for (const auto& o : executor_.wait(std::chrono::milliseconds(250))) finish(o);
    progress_.update(counts(), finished_here_);
  }
  progress_.update(counts(), finished_here_, true);
  progress_.finish();

  RunSummary summary{campaign_.label, db_.path(), campaign_.run_root, plan_.run_count(), 0, 0, executed_, g_stop.load()};
  for (const auto& c : db_.state_counts(campaign_.id)) {
    if (c.state == store::RunState::succeeded) summary.succeeded = static_cast<std::size_t>(c.count);
    if (c.state == store::RunState::failed) summary.failed = static_cast<std::size_t>(c.count);
  }
  if (!summary.interrupted) db_.end_campaign(campaign_.id, iso8601(clock_.wall()));
  return summary;
}

namespace {

RunSummary dry_run(const RunOptions& o, const CampaignPlan& plan, const std::string& label) {
  const fs::path dir = fs::absolute(fs::path(o.results_dir) / label / "dry-run").lexically_normal();
  fs::create_directories(dir);
  std::size_t n = 0;
  for (const auto& point : plan.points())
    for (int rep = 0; rep < plan.experiment().repetitions; ++rep, ++n) {
      const std::string run_dir = (dir / fmt::format("{}-rep{}", point.id, rep)).string();
      write_script(run_dir + ".sh", plan.render_script(point, RunContext{label, 0, rep, 1, run_dir}));
    }
  return RunSummary{label, "", dir.string(), n, 0, 0, 0, false};
}

}  // namespace

RunSummary run_campaign(const RunOptions& options) {
  g_stop = false;
  SystemClock clock;
  const std::string db_path = options.db_path.empty() ? options.results_dir + "/sweep.db" : options.db_path;
  std::unique_ptr<store::Store> db;
  if (!options.resume.empty()) db = std::make_unique<store::Store>(db_path);
  Resolved resolved = resolve(options, db.get(), clock);
  CampaignPlan plan(resolved.experiment, options.template_dir);
  if (options.dry_run) return dry_run(options, plan, resolved.label);

  fs::create_directories(fs::path(db_path).parent_path().empty() ? "." : fs::path(db_path).parent_path());
  if (!db) db = std::make_unique<store::Store>(db_path);
  CampaignRunner runner(options, std::move(plan), std::move(resolved), *db);
  return runner.run();
}

}  // namespace sweep::runner
