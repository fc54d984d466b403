#pragma once
// The settings a campaign is started with besides its experiment and --set values, recorded with it
// (store::CampaignSettings, schema 9) so that `sweep run --resume` and `sweep collect` run it as it
// started, whatever today's site file or --templates say. Names:
//   site.path      the site file in use ("" when none)
//   site.found_by  how it was found ("--site", "$SWEEP_SITE", ...; "" when none)
//   site.text      its text, each literal secret masked as in the stored experiment (runner/job_secrets.h)
//   templates      the job-script template directory (--templates), absolute
//   telemetry      the telemetry setting its runs sample with (spec::telemetry_text: "off" or
//                  "interval_ms=N sources=..."), after the site and the templates had their say; absent
//                  in a campaign from before telemetry (its runs have none)
// What the site file says about where results go (`results`) is read before the database is found, so
// today's file still decides that.
#include <optional>
#include <string>
#include <vector>

#include "spec/site.h"
#include "store/records.h"

namespace sweep::runner {

/// The settings to record for a new campaign run with `site`, `template_dir` and `telemetry`.
store::CampaignSettings settings_to_record(const spec::Site& site, const std::string& template_dir,
                                           const spec::Telemetry& telemetry);

/// The telemetry a campaign's runs were started with, from its record: off for a campaign from before
/// telemetry (no `telemetry` setting) or one whose setting this build cannot read. Pure.
spec::Telemetry recorded_telemetry(const store::CampaignSettings& recorded);

/// What a resumed or collected campaign runs with.
struct CampaignEnvironment {
  spec::Site site;           // applied to its stored experiment
  std::string template_dir;  // its job-script templates
  std::vector<std::string> notes;  // one line each for stderr: a recorded setting that today's differs from
  std::optional<spec::Telemetry> telemetry;  // the recorded telemetry setting; none before it was recorded
};

/// The recorded site and templates of campaign `label` when it has them (`recorded` not empty), else
/// `today_site` and `today_templates`, as before schema 9. The templates: `today_templates` instead when
/// `templates_given` (an explicit --templates) or when the recorded directory is gone. A note names each
/// difference from today's: the site's (spec/site_change.h) and the template directory's.
/// Error(invalid_experiment) naming the recorded path when the recorded site text no longer validates (a
/// newer sweep's format). Pure, but for making `today_templates` absolute and asking whether the recorded
/// directory exists.
CampaignEnvironment recorded_environment(const store::CampaignSettings& recorded, const std::string& label,
                                         const spec::Site& today_site, const std::string& today_templates,
                                         bool templates_given = false);

}  // namespace sweep::runner
