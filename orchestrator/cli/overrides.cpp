#include "cli/overrides.h"

#include <fmt/core.h>

#include "util/error.h"

namespace sweep::cli {

std::vector<spec::Override> parse_overrides(const std::vector<std::string>& sets) {
  std::vector<spec::Override> out;
  for (const auto& s : sets) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error(ErrorKind::usage, fmt::format("--set \"{}\": expected key=value", s));
    out.push_back({s.substr(0, eq), s.substr(eq + 1)});
  }
  return out;
}

}  // namespace sweep::cli
