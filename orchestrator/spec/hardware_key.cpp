#include "spec/hardware_key.h"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>

#include "util/error.h"
#include "util/sinks.h"
#include "util/strings.h"

namespace sweep::spec {

namespace {
constexpr std::size_t kLongestKey = 128;

bool key_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-'; }
}  // namespace

const std::vector<std::string>& default_hardware_key() {
  static const std::vector<std::string> key{"gpu.model", "gpu.count", "cpu_model"};
  return key;
}

bool is_provenance_key_name(std::string_view name) {
  if (name.empty() || name.size() > kLongestKey || name[0] == '.' || name[0] == '-') return false;
  return std::all_of(name.begin(), name.end(), key_char);
}

std::vector<std::string> parse_hardware_key(const std::vector<std::string>& items, std::string_view option) {
  std::vector<std::string> key;
  for (const auto& item : items)
    for (const auto& part : split(item, ',')) {
      const std::string name(trim(part));
      if (!is_provenance_key_name(name))
        throw Error(ErrorKind::usage, fmt::format("{} \"{}\": expected provenance key names separated by commas "
                                                  "([A-Za-z0-9_][A-Za-z0-9_.-]*, e.g. gpu.model,gpu.count,cpu_model)",
                                                  option, terminal_text(name)));
      if (std::find(key.begin(), key.end(), name) == key.end()) key.push_back(name);
    }
  if (key.empty()) throw Error(ErrorKind::usage, fmt::format("{}: expected at least one provenance key", option));
  return key;
}

std::vector<std::string> hardware_key_in_force(const std::vector<std::string>& given, const std::vector<std::string>& site) {
  if (!given.empty()) return parse_hardware_key(given, "--hardware-key");
  if (!site.empty()) return site;
  return default_hardware_key();
}

}  // namespace sweep::spec
