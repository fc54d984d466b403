#include "runner/campaign_settings.h"

#include <fmt/core.h>

#include <filesystem>

#include "runner/job_secrets.h"
#include "spec/site_change.h"

namespace sweep::runner {
namespace {

std::string absolute(const std::string& dir) {
  return dir.empty() ? dir : std::filesystem::absolute(dir).lexically_normal().string();
}

std::string setting(const store::CampaignSettings& s, const std::string& name) {
  const auto it = s.find(name);
  return it == s.end() ? std::string() : it->second;
}

}  // namespace

store::CampaignSettings settings_to_record(const spec::Site& site, const std::string& template_dir,
                                           const spec::Telemetry& telemetry) {
  return {{"site.path", site.path},
          {"site.found_by", site.found_by},
          {"site.text", site.path.empty() ? std::string() : recorded_site_text(site)},
          {"templates", absolute(template_dir)},
          {"telemetry", spec::telemetry_text(telemetry)}};
}

spec::Telemetry recorded_telemetry(const store::CampaignSettings& recorded) {
  spec::Telemetry off;
  off.enabled = false;
  const auto it = recorded.find("telemetry");
  if (it == recorded.end()) return off;
  return spec::telemetry_from_text(it->second).value_or(off);
}

CampaignEnvironment recorded_environment(const store::CampaignSettings& recorded, const std::string& label,
                                         const spec::Site& today_site, const std::string& today_templates,
                                         bool templates_given) {
  if (recorded.empty()) return {today_site, today_templates, {}, std::nullopt};
  CampaignEnvironment out;
  if (recorded.count("telemetry")) out.telemetry = recorded_telemetry(recorded);
  const std::string path = setting(recorded, "site.path");
  if (!path.empty()) {
    out.site = spec::load_site_text(setting(recorded, "site.text"), path);
    out.site.found_by = setting(recorded, "site.found_by");
  }
  if (const std::string change = spec::site_change(out.site, today_site); !change.empty())
    out.notes.push_back(fmt::format("note: campaign \"{}\" keeps the site file it started with, not today's ({})",
                                    label, change));
  const std::string kept = setting(recorded, "templates");
  out.template_dir = kept.empty() ? today_templates : kept;
  if (kept.empty() || absolute(today_templates) == kept) return out;
  if (templates_given) {
    out.template_dir = today_templates;
    out.notes.push_back(fmt::format("note: campaign \"{}\" runs with this command's --templates {}, not the templates "
                                    "it started with ({})", label, absolute(today_templates), kept));
  } else if (!std::filesystem::is_directory(kept)) {
    out.template_dir = today_templates;
    out.notes.push_back(fmt::format("note: campaign \"{}\" started with the job-script templates {}, which are gone; "
                                    "it runs with {}", label, kept, absolute(today_templates)));
  } else {
    out.notes.push_back(fmt::format("note: campaign \"{}\" keeps the job-script templates it started with, {} "
                                    "(this command's are {}; --templates chooses)", label, kept, absolute(today_templates)));
  }
  return out;
}

}  // namespace sweep::runner
