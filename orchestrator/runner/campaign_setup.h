#pragma once
// What every campaign driver (local: run_campaign.cpp, batch: batch_driver.cpp) does the same way:
// resolve the experiment and label, open or create the campaign row, lay out run directories, write
// job scripts, and apply the retry policy. Internal to runner/.
#include <optional>
#include <string>
#include <vector>

#include "parse/extract.h"
#include "runner/campaign_plan.h"
#include "runner/controller_lock.h"
#include "runner/job_secrets.h"
#include "runner/run_options.h"
#include "store/store.h"
#include "util/clock.h"

namespace sweep::runner {

/// The experiment and identity of the campaign to run: from the file, or from the database on resume.
struct Resolved {
  spec::Experiment experiment;
  std::string label;
  std::string overrides;
  JobSecrets secrets{};  // filled by run_campaign and collect before anything runs (resolve_secrets); empty for cancel
  spec::Site site{};          // the site file applied: options.site, or on resume the one recorded with the campaign
  std::string template_dir{};  // the job-script templates: options.template_dir, or on resume the recorded ones
  std::vector<std::string> notes{};  // for stderr: what a resumed campaign keeps that differs from today's
  std::vector<store::ForecastRecord> forecast{};  // stored with a new campaign (RunOptions::forecast)
};

/// Refuses (Error(database)) a campaign whose stored experiment text does not hash to its stored
/// spec_hash: the database is executable content, and one changed outside sweep is not run.
void require_stored_experiment_intact(const store::CampaignRecord& campaign, const std::string& db_path);

/// Refuses (Error(usage)) a campaign `sweep import` brought in (docs/forecasts.md, "Systems and bundles"):
/// its runs ran on another system, and its recorded paths are never claimed, resumed or written to.
/// `what` names the refused action ("resume", "collect", ...).
void require_local_campaign(const store::CampaignRecord& campaign, std::string_view what);

/// Loads the experiment from options.experiment_path, or from the campaign options.resume in `db`
/// (Error(not_found) when there is none; require_local_campaign and require_stored_experiment_intact before anything else). Applies options.executor. Validates the label.
/// Applies the site: options.site, or for a resume the site recorded with the campaign (runner/campaign_settings.h),
/// with a note for each difference from today's.
Resolved resolve(const RunOptions& options, store::Store* db, const Clock& clock);

/// The campaign row for `resolved`: the existing one (Error(usage) when it was created from a
/// different experiment or --set values and this is not a resume) or a new one with its points and
/// pending runs. Its run root is made new, with its marker, before the row is written (runner/run_root.h:
/// a label that shadows the database, a run root that exists, or a results directory that is not
/// trusted is refused, and nothing is recorded); an existing campaign's run root is claimed. A new one
/// records resolved.site and resolved.template_dir with it (runner/campaign_settings.h). On return
/// `lock` holds the campaign's controller lock, taken before anything is written: of two `sweep run` of
/// one label at once, one goes on and the other is refused (Error(usage) naming the holder) having
/// touched nothing.
store::CampaignRecord open_campaign(store::Store& db, const RunOptions& options, const Resolved& resolved,
                                    const CampaignPlan& plan, const Clock& clock, std::optional<ControllerLock>& lock);

/// The metric extraction rules of an experiment.
std::vector<parse::Rule> extraction_rules(const spec::Experiment& e);

/// <run_root>/<point>.rep<R>.attempt<A>: one directory a run, no levels in between (every directory
/// and file made is an inode allocation, the largest cost of a trivial run: bench/campaign_1000).
std::string attempt_dir(const std::string& run_root, const store::RunRecord& run, int attempt);

/// Writes a job script, mode 0755 under the umask (never writable by group or others), a new file or
/// the user's own regular one (util/safe_files.h: a symlink is never followed). Throws Error(io).
void write_script(const std::string& path, const std::string& text);
/// Writes `text` to `path` (mode 0644 under the umask; replacing only the user's own regular file,
/// never following a symlink); throws Error(io) naming the file when it cannot.
void write_text(const std::string& path, const std::string& text);

/// Records attempt `attempt` of run `run_id` as failed with `failure_class` (util/failure_classes.h)
/// and `reason`, with `provenance`, ended now by `clock`; returns what it recorded (the retry policy reads it).
store::AttemptResult record_failed_attempt(store::Store& db, const Clock& clock, std::int64_t run_id, int attempt,
                                           std::string_view failure_class, std::string reason,
                                           store::KeyValues provenance = {});

/// The exit status a job script wrote to <run_dir>/exit_code when its workload ended, if it did.
std::optional<int> recorded_exit_code(const std::string& run_dir);

/// Whether a run whose latest attempt failed with `failure_class` gets another attempt: the
/// experiment's retries for that class exceed the attempts that already failed with it.
bool retry_allowed(const spec::Experiment& e, const std::string& failure_class,
                   const std::vector<store::RunRecord>& attempts);

/// The summary of a campaign as the database has it now: planned counts every run it has, the runs
/// adaptive repetitions added included.
RunSummary summarize(store::Store& db, const store::CampaignRecord& campaign, std::size_t executed, bool interrupted);

}  // namespace sweep::runner
