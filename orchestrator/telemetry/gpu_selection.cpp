#include "telemetry/gpu_selection.h"

#include <algorithm>
#include <charconv>
#include <string_view>

namespace sweep::telemetry {
namespace {

/// The index `entry` names, or -1.
int named_index(std::string_view entry, const std::vector<std::string>& uuids) {
  int index = -1;
  const auto [end, ec] = std::from_chars(entry.data(), entry.data() + entry.size(), index);
  if (ec == std::errc() && end == entry.data() + entry.size()) {
    return index >= 0 && index < static_cast<int>(uuids.size()) ? index : -1;
  }
  int found = -1;
  for (std::size_t i = 0; i < uuids.size(); ++i) {
    std::string_view uuid = uuids[i];
    const bool match = uuid.substr(0, entry.size()) == entry ||
                       (uuid.substr(0, 4) == "GPU-" && uuid.substr(4, entry.size()) == entry);
    if (!match) continue;
    if (found >= 0) return -1;  // ambiguous prefix
    found = static_cast<int>(i);
  }
  return found;
}

}  // namespace

std::vector<int> select_gpus(const std::optional<std::string>& visible, const std::vector<std::string>& uuids) {
  std::vector<int> chosen;
  if (!visible) {
    for (std::size_t i = 0; i < uuids.size(); ++i) chosen.push_back(static_cast<int>(i));
    return chosen;
  }
  std::string_view rest = *visible;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    std::string_view entry = rest.substr(0, comma);
    while (!entry.empty() && entry.front() == ' ') entry.remove_prefix(1);
    while (!entry.empty() && entry.back() == ' ') entry.remove_suffix(1);
    const int index = entry.empty() ? -1 : named_index(entry, uuids);
    if (index < 0) break;
    if (std::find(chosen.begin(), chosen.end(), index) == chosen.end()) chosen.push_back(index);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return chosen;
}

}  // namespace sweep::telemetry
