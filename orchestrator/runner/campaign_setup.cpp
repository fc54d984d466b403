#include "runner/campaign_setup.h"

#include <fmt/core.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "runner/campaign_settings.h"
#include "runner/stop.h"
#include "runner/provenance.h"
#include "runner/run_root.h"
#include "util/error.h"
#include "util/names.h"
#include "util/safe_files.h"
#include "util/sha256.h"
#include "util/version.h"

namespace sweep::runner {
namespace fs = std::filesystem;

namespace {

parse::Rule::Kind rule_kind(spec::MetricRule::Kind kind) {
  switch (kind) {
    case spec::MetricRule::Kind::regex:
      return parse::Rule::Kind::regex;
    case spec::MetricRule::Kind::json:
      return parse::Rule::Kind::json;
    case spec::MetricRule::Kind::parser:
      return parse::Rule::Kind::parser;
  }
  throw Error(ErrorKind::internal, "unknown metric rule kind");
}

}  // namespace

void require_stored_experiment_intact(const store::CampaignRecord& c, const std::string& db_path) {
  const std::string actual = sha256_hex(c.spec_text);
  if (actual != c.spec_hash)
    throw Error(ErrorKind::database,
                fmt::format("the stored experiment of campaign \"{}\" in {} does not match its stored SHA-256 "
                            "(stored {}, its text hashes to {}): the database was changed outside sweep, and sweep "
                            "does not run an experiment it cannot vouch for; nothing was run",
                            c.label, db_path, c.spec_hash, actual));
}

void require_local_campaign(const store::CampaignRecord& c, std::string_view what) {
  if (c.origin_database_id.empty()) return;
  throw Error(ErrorKind::usage,
              fmt::format("campaign \"{}\" was imported (label \"{}\" in database {} of system \"{}\"): its runs ran "
                          "there, so sweep does not {} it here; {} it where it ran, export it again and sweep rm {} before "
                          "importing the new bundle; nothing was changed",
                          c.label, c.origin_label, c.origin_database_id.substr(0, 8), c.system, what, what, c.label));
}

Resolved resolve(const RunOptions& o, store::Store* db, const Clock& clock) {
  Resolved r;
  if (!o.resume.empty()) {
    const auto c = db ? db->find_campaign(o.resume) : std::nullopt;
    if (!c) throw Error(ErrorKind::not_found, fmt::format("no campaign labelled \"{}\" in {}", o.resume, db ? db->path() : o.db_path));
    require_local_campaign(*c, o.collect ? "collect" : "resume");
    require_stored_experiment_intact(*c, db->path());
    r = {spec::load_stored(c->spec_text, c->spec_path, c->overrides), c->label, c->overrides};
    r.experiment.executor = c->executor;
    r.experiment.executor_where = SourceLocation{"the campaign's record"};
    CampaignEnvironment recorded = recorded_environment(db->campaign_settings(c->id), c->label, o.site, o.template_dir,
                                                          o.templates_given);
    r.site = std::move(recorded.site);
    r.template_dir = std::move(recorded.template_dir);
    r.notes = std::move(recorded.notes);
    spec::apply_site(r.site, r.experiment);
    if (recorded.telemetry) r.experiment.telemetry = *recorded.telemetry;  // as it started, whatever changed since
    return r;
  }
  r = {spec::load_file(o.experiment_path, o.overrides), o.label, spec::overrides_text(o.overrides)};
  r.site = o.site;
  r.template_dir = o.template_dir;
  if (!o.executor.empty()) {
    r.experiment.executor = o.executor;
    r.experiment.executor_where = SourceLocation{"--executor"};
  }
  spec::apply_site(o.site, r.experiment);
  if (r.label.empty()) r.label = r.experiment.name + "-" + compact_stamp(clock.wall());
  require_safe_name(r.label, "campaign label");
  return r;
}

store::CampaignRecord open_campaign(store::Store& db, const RunOptions& options, const Resolved& resolved,
                                    const CampaignPlan& plan, const Clock& clock, std::optional<ControllerLock>& lock) {
  const auto& e = plan.experiment();
  const std::string results_dir = options.results_dir.empty() ? "." : options.results_dir;
  RunRootMarker marker{fs::absolute(db.path()).lexically_normal().string(), db.database_id(), resolved.label};
  if (auto existing = db.find_campaign(resolved.label)) {
    if (options.resume.empty() &&
        (existing->spec_hash != sha256_hex(recorded_text(e)) || existing->overrides != resolved.overrides))
      throw Error(ErrorKind::usage,
                  fmt::format("campaign \"{0}\" already exists with a different experiment or --set values. "
                              "Next, one of: sweep run --resume {0} (finish it as stored); sweep reparse {0} --from "
                              "{1} (only the metrics: section changed: read its logs again); sweep rerun {0} "
                              "[--where name=value] [--state failed|all] (run chosen runs again); sweep extend {0} "
                              "--repetitions N (more repetitions); sweep rm {0} (remove it, then run again); or "
                              "another --label",
                              resolved.label, e.path));
    for (const auto& p : db.points(existing->id)) plan.point(p.point_id);  // same points, or Error
    claim_run_root(existing->run_root, marker, lock);
    return *existing;
  }
  require_label_clear_of_database(resolved.label, results_dir, db.path());
  make_directories(results_dir);
  require_trusted(results_dir, "results directory");
  const HostFacts host = host_facts();
  const auto git = git_state(fs::absolute(e.path).parent_path().string());
  store::CampaignRecord c;
  c.label = resolved.label;
  c.experiment = e.name;
  c.spec_path = e.path;
  c.spec_text = recorded_text(e);  // literal secrets masked; the hash is of the text as stored
  c.spec_hash = sha256_hex(c.spec_text);
  c.overrides = resolved.overrides;
  c.executor = e.executor;
  c.repetitions = e.repetitions;
  c.started_at = iso8601(clock.wall());
  c.host = host.hostname;
  c.user = host.user;
  c.tool_version = kToolVersion;
  c.git_commit = git.commit;
  c.git_dirty = git.dirty;
  c.run_root = fs::absolute(fs::path(results_dir) / resolved.label).lexically_normal().string();
  c.experiment_dir = fs::absolute(e.path).parent_path().lexically_normal().string();
  c.launch_dir = fs::current_path().string();
  c.system = resolved.site.name;
  // The run root first, new, under the campaign's lock, then the campaign's row: a failure in between
  // leaves neither behind.
  create_run_root(c.run_root, marker, lock);
  if (db.find_campaign(c.label))  // another sweep of this label recorded it and ended meanwhile: its run root
    throw Error(ErrorKind::usage, fmt::format("campaign \"{0}\" was started by another sweep meanwhile; "
                                              "sweep run --resume {0} finishes it, or choose another --label",
                                              c.label));
  try {
    c.id = db.create_campaign(c, plan.point_records(), settings_to_record(resolved.site, resolved.template_dir, e.telemetry),
                              resolved.forecast, &stop_flag());
  } catch (...) {
    lock.reset();
    std::error_code ignored;
    if (!db.find_campaign(c.label)) fs::remove_all(c.run_root, ignored);  // never a run root a campaign has
    throw;
  }
  return c;
}

std::vector<parse::Rule> extraction_rules(const spec::Experiment& e) {
  std::vector<parse::Rule> rules;
  for (const auto& m : e.metrics)
    rules.push_back({m.name, m.unit, m.better, rule_kind(m.kind), m.pattern, m.source, m.where, m.reduce});
  return rules;
}

std::string attempt_dir(const std::string& run_root, const store::RunRecord& run, int attempt) {
  return fmt::format("{}/{}.rep{}.attempt{}", run_root, run.point_id, run.repetition, attempt);
}

void write_text(const std::string& path, const std::string& text) { replace_own_file(path, text, 0644); }

void write_script(const std::string& path, const std::string& text) { replace_own_file(path, text, 0755); }

store::AttemptResult record_failed_attempt(store::Store& db, const Clock& clock, std::int64_t run_id, int attempt,
                                           std::string_view failure_class, std::string reason,
                                           store::KeyValues provenance) {
  store::AttemptResult r;
  r.state = store::RunState::failed;
  r.failure_class = failure_class;
  r.failure_reason = std::move(reason);
  r.provenance = std::move(provenance);
  r.ended_at = iso8601(clock.wall());
  db.finish_attempt(run_id, attempt, r);
  return r;
}

std::optional<int> recorded_exit_code(const std::string& run_dir) {
  std::ifstream in(run_dir + "/exit_code");
  int code = -1;
  if (in >> code) return code;
  return std::nullopt;
}

bool retry_allowed(const spec::Experiment& e, const std::string& failure_class,
                   const std::vector<store::RunRecord>& attempts) {
  const auto it = e.retries.find(failure_class);
  if (it == e.retries.end()) return false;
  int failed_so = 0;
  for (const auto& a : attempts)
    if (a.state == store::RunState::failed && a.failure_class == failure_class) ++failed_so;
  return failed_so <= it->second;
}

RunSummary summarize(store::Store& db, const store::CampaignRecord& campaign, std::size_t executed, bool interrupted) {
  RunSummary s;
  s.label = campaign.label;
  s.db_path = db.path();
  s.run_root = campaign.run_root;
  s.executed = executed;
  s.interrupted = interrupted;
  for (const auto& c : db.state_counts(campaign.id)) {
    s.planned += static_cast<std::size_t>(c.count);
    if (c.state == store::RunState::succeeded) s.succeeded = static_cast<std::size_t>(c.count);
    if (c.state == store::RunState::failed) s.failed = static_cast<std::size_t>(c.count);
    if (c.state == store::RunState::running || c.state == store::RunState::pending)
      s.unfinished += static_cast<std::size_t>(c.count);
  }
  if (s.failed > 0) {
    for (auto& run : db.runs(campaign.id))
      if (run.state == store::RunState::failed) s.failed_runs.push_back(std::move(run));
    s.points = db.points(campaign.id);
  }
  return s;
}

}  // namespace sweep::runner
