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

store::CampaignSettings settings_to_record(const spec::Site& site, const std::string& template_dir) {
  return {{"site.path", site.path},
          {"site.found_by", site.found_by},
          {"site.text", site.path.empty() ? std::string() : recorded_site_text(site)},
          {"templates", absolute(template_dir)}};
}

CampaignEnvironment recorded_environment(const store::CampaignSettings& recorded, const std::string& label,
                                         const spec::Site& today_site, const std::string& today_templates) {
  if (recorded.empty()) return {today_site, today_templates, {}};
  CampaignEnvironment out;
  const std::string path = setting(recorded, "site.path");
  if (!path.empty()) {
    out.site = spec::load_site_text(setting(recorded, "site.text"), path);
    out.site.found_by = setting(recorded, "site.found_by");
  }
  if (const std::string change = spec::site_change(out.site, today_site); !change.empty())
    out.notes.push_back(fmt::format("note: campaign \"{}\" keeps the site file it started with, not today's ({})",
                                    label, change));
  out.template_dir = setting(recorded, "templates");
  if (out.template_dir.empty()) out.template_dir = today_templates;
  if (absolute(today_templates) != out.template_dir)
    out.notes.push_back(fmt::format("note: campaign \"{}\" keeps the job-script templates it started with, {} "
                                    "(this command's are {})",
                                    label, out.template_dir, absolute(today_templates)));
  return out;
}

}  // namespace sweep::runner
