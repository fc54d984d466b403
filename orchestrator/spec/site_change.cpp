#include "spec/site_change.h"

#include <fmt/core.h>

#include <algorithm>
#include <vector>

#include "util/strings.h"

namespace sweep::spec {
namespace {

const Setting* find_setting(const std::vector<Setting>& settings, const std::string& name) {
  const auto it = std::find_if(settings.begin(), settings.end(), [&](const Setting& s) { return s.name == name; });
  return it == settings.end() ? nullptr : &*it;
}

std::string path_or_none(const Site& site) { return site.path.empty() ? "none" : site.path; }

}  // namespace

std::string site_change(const Site& then, const Site& now) {
  std::vector<std::string> changes;
  if (then.path != now.path) changes.push_back(fmt::format("the site file was {}, now {}", path_or_none(then), path_or_none(now)));
  const std::vector<Setting> before = effective_settings(then, nullptr), after = effective_settings(now, nullptr);
  for (const Setting& b : before) {
    const Setting* a = find_setting(after, b.name);
    if (!a) changes.push_back(fmt::format("{} removed (was {})", b.name, b.value));
    else if (a->value != b.value) changes.push_back(fmt::format("{} {} -> {}", b.name, b.value, a->value));
  }
  for (const Setting& a : after)
    if (!find_setting(before, a.name)) changes.push_back(fmt::format("{} added ({})", a.name, a.value));
  return join(changes, "; ");
}

}  // namespace sweep::spec
