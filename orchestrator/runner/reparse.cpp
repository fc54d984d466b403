#include "runner/reparse.h"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "runner/campaign_settings.h"
#include "runner/campaign_setup.h"
#include "runner/controller_lock.h"
#include "runner/ingest.h"
#include "runner/job_secrets.h"
#include "runner/nic_sampling.h"
#include "runner/provenance.h"
#include "runner/run_root.h"
#include "spec/load.h"
#include "spec/section_diff.h"
#include "store/store.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/sha256.h"
#include "util/strings.h"

namespace sweep::runner {
namespace fs = std::filesystem;

namespace {

/// The sections `sweep reparse --from` may change.
constexpr std::string_view kReparseSections[] = {"metrics"};

/// The outcome of a run's latest attempt: its exit_status file, else what the database recorded.
exec::Outcome recorded_outcome(const store::RunRecord& run) {
  std::ifstream in(run.run_dir + "/exit_status");
  std::stringstream text;
  text << in.rdbuf();
  if (auto o = parse_exit_status(text.str())) return *o;
  exec::Outcome o;
  o.exit_code = run.exit_code.value_or(-1);
  o.signal = run.signal.value_or(0);
  o.timed_out = run.failure_class == failure::kTimeout;
  o.elapsed_s = run.elapsed_s.value_or(0);
  return o;
}

/// The experiment whose rules the reparse uses, and its text to store ("" = unchanged). Refuses a
/// --from file whose sections other than kReparseSections differ from the stored experiment.
std::pair<spec::Experiment, std::string> reparse_experiment(const ReparseOptions& o, const store::CampaignRecord& c) {
  spec::Experiment stored = spec::load_stored(c.spec_text, c.spec_path, c.overrides);
  if (o.from_path.empty()) return {std::move(stored), ""};
  spec::Experiment fresh = spec::load_file(o.from_path, spec::parse_overrides_text(c.overrides));
  std::string text = recorded_text(fresh);
  std::vector<std::string> other;
  for (const std::string& key : spec::differing_sections(c.spec_text, text, o.from_path))
    if (std::find(std::begin(kReparseSections), std::end(kReparseSections), key) == std::end(kReparseSections))
      other.push_back(key);
  if (!other.empty())
    throw Error(ErrorKind::usage,
                fmt::format("{}: sweep reparse may change only the metrics: section of campaign \"{}\", but {} "
                            "differ{} from its stored experiment; to run a changed experiment, start a new campaign "
                            "(sweep run {} --label <new label>); nothing was changed",
                            o.from_path, c.label, join(other, ", "), other.size() == 1 ? "s" : "", o.from_path));
  if (text == c.spec_text) text.clear();
  return {std::move(fresh), std::move(text)};
}

std::size_t count_values(const store::Store& db, std::int64_t campaign_id) {
  return db.for_each_metric(campaign_id, [](const store::MetricRowView&) {});
}

store::ChangeRecord reparse_change(const store::CampaignRecord& c, const ReparseOptions& o, const ReparseSummary& s,
                                   const std::string& hash) {
  const HostFacts host = host_facts();
  store::ChangeRecord change;
  change.campaign_id = c.id;
  change.at = iso8601(SystemClock{}.wall());
  change.user = host.user;
  change.host = host.hostname;
  change.kind = "reparse";
  change.what = fmt::format("metric rules revision {} ({}{}): {} runs read again, {} -> {} values, {} now succeeded, "
                            "{} now failed",
                            s.revision, hash.substr(0, 12),
                            o.from_path.empty() ? ", the stored rules" : ", metrics: from " + o.from_path, s.runs_read,
                            s.values_before, s.values_after, s.now_succeeded, s.now_failed);
  change.rules_hash = hash;
  return change;
}

}  // namespace

std::optional<exec::Outcome> parse_exit_status(std::string_view text) {
  std::map<std::string, std::string, std::less<>> fields;
  for (const std::string& line : split(std::string(text), '\n'))
    if (const auto eq = line.find('='); eq != std::string::npos) fields[line.substr(0, eq)] = line.substr(eq + 1);
  if (fields["format"] != "1") return std::nullopt;
  try {
    exec::Outcome o;
    o.exit_code = std::stoi(fields.at("exit_code"));
    o.signal = std::stoi(fields.at("signal"));
    o.timed_out = fields.at("timed_out") == "1";
    o.elapsed_s = std::stod(fields.at("elapsed_s"));
    return o;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool decided_by_metrics(const store::RunRecord& run) {
  static constexpr std::string_view kByMetrics[] = {failure::kMissingMetric, failure::kUnreducedMetric,
                                                    failure::kCriterion};
  if (run.state == store::RunState::succeeded) return true;
  return run.state == store::RunState::failed &&
         std::find(std::begin(kByMetrics), std::end(kByMetrics), run.failure_class) != std::end(kByMetrics);
}

store::ReparsedRun reparsed(const store::RunRecord& run, const store::AttemptResult& fresh) {
  store::ReparsedRun r;
  r.run_id = run.id;
  r.attempt = run.attempt;
  r.metrics = fresh.metrics;
  for (const auto& kv : fresh.provenance)
    if (std::any_of(std::begin(store::kReparsedPrefixes), std::end(store::kReparsedPrefixes),
                    [&](std::string_view prefix) { return kv.first.starts_with(prefix); }))
      r.matches.push_back(kv);
  r.redecided = decided_by_metrics(run);
  r.state = r.redecided ? fresh.state : run.state;
  r.failure_class = r.redecided ? fresh.failure_class : run.failure_class;
  r.failure_reason = r.redecided ? fresh.failure_reason : run.failure_reason;
  return r;
}

ReparseSummary reparse_campaign(const ReparseOptions& o) {
  if (!fs::exists(o.db_path)) throw Error(ErrorKind::not_found, fmt::format("no results database at {}", o.db_path));
  store::Store db(o.db_path);
  const auto c = db.find_campaign(o.label);
  if (!c) throw Error(ErrorKind::not_found, fmt::format("no campaign labelled \"{}\" in {}", o.label, o.db_path));
  require_local_campaign(*c, "reparse");
  require_stored_experiment_intact(*c, db.path());
  const ControllerLock lock(c->run_root, c->label);  // refused while the campaign runs
  auto [experiment, new_text] = reparse_experiment(o, *c);
  const parse::Extractor extractor(extraction_rules(experiment));  // a bad rule is refused here, before any write

  const bool telemetry_on = recorded_telemetry(db.campaign_settings(c->id)).enabled;  // as its runs sampled
  ReparseSummary s;
  s.label = c->label;
  s.values_before = count_values(db, c->id);
  std::vector<store::ReparsedRun> out;
  for (const auto& run : db.runs(c->id)) {
    const bool ended = run.state == store::RunState::succeeded || run.state == store::RunState::failed;
    if (!ended || run.attempt == 0 || run.run_dir.empty() || !fs::is_directory(run.run_dir)) {
      ++s.runs_skipped;
      continue;
    }
    const store::AttemptResult fresh = ingest(recorded_outcome(run), run.run_dir, extractor, experiment.success,
                                              nic_counters_on(experiment.network), telemetry_on);
    store::ReparsedRun r = reparsed(run, fresh);
    ++s.runs_read;
    s.values_after += r.metrics.size();
    if (r.redecided && r.state != run.state) ++(r.state == store::RunState::succeeded ? s.now_succeeded : s.now_failed);
    out.push_back(std::move(r));
  }
  s.revision = 1;
  for (const auto& change : db.changes(c->id)) s.revision += change.kind == "reparse";
  const std::string stored_text = new_text.empty() ? c->spec_text : new_text;
  s.rules_hash = sha256_hex(stored_text);
  s.experiment_replaced = !new_text.empty();
  db.replace_results(c->id, out, reparse_change(*c, o, s, s.rules_hash), new_text,
                     new_text.empty() ? "" : s.rules_hash);
  return s;
}

}  // namespace sweep::runner
