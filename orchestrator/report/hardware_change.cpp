#include "report/hardware_change.h"

#include <fmt/core.h>

#include <set>

#include "util/error.h"
#include "util/sinks.h"
#include "util/strings.h"

namespace sweep::report {

namespace {
std::string side_text(const std::vector<std::string>& values) { return values.empty() ? "none" : join(values, ", "); }
}  // namespace

std::vector<std::string> distinct_key_values(const std::string& key, const std::vector<store::AttemptValue>& values) {
  std::set<std::string> distinct;
  for (const auto& v : values)
    if (v.key == key && !v.value.empty()) distinct.insert(v.value);
  return {distinct.begin(), distinct.end()};
}

HardwareChange hardware_change(const std::vector<std::string>& key, const std::vector<store::AttemptValue>& baseline,
                               const std::vector<store::AttemptValue>& candidate) {
  HardwareChange out{key, {}};
  for (const auto& k : key) {
    KeyChange change{k, distinct_key_values(k, baseline), distinct_key_values(k, candidate)};
    if (change.baseline != change.candidate) out.changes.push_back(std::move(change));
  }
  return out;
}

std::string key_change_text(const KeyChange& change) {
  return fmt::format("{} {} -> {}", change.key, side_text(change.baseline), side_text(change.candidate));
}

std::string hardware_refusal(const HardwareChange& change, const std::string& baseline, const std::string& candidate) {
  std::vector<std::string> texts;
  for (const auto& c : change.changes) texts.push_back(key_change_text(c));
  // The values come from a database (an imported bundle's included): one line of terminal text.
  return fmt::format("the baseline {} ran on other hardware than {}: {} (hardware key: {}); to compare anyway, pass "
                     "--allow-hardware-change (or judge by other keys: --hardware-key KEY,KEY, or the site file's "
                     "hardware_key)",
                     baseline, candidate, terminal_text(join(texts, "; ")), join(change.key, ", "));
}

void refuse_unless_allowed(const HardwareChange& change, bool allowed, const std::string& baseline,
                           const std::string& candidate) {
  if (change.changed() && !allowed) throw Error(ErrorKind::usage, hardware_refusal(change, baseline, candidate));
}

std::string hardware_change_lines(const HardwareChange& change) {
  std::string out;
  for (const auto& c : change.changes) out += "hardware changed (--allow-hardware-change): " + terminal_text(key_change_text(c)) + "\n";
  return out;
}

std::string hardware_values_text(const std::vector<std::string>& key, const std::vector<store::AttemptValue>& values) {
  std::vector<std::string> texts;
  for (const auto& k : key) texts.push_back(k + " " + side_text(distinct_key_values(k, values)));
  return terminal_text(join(texts, "; "));
}

}  // namespace sweep::report
