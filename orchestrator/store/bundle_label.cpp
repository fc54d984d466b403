#include "store/bundle_label.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "util/error.h"
#include "util/names.h"

namespace sweep::store {

std::string imported_label(std::string_view origin_label, std::string_view system, std::string_view origin_database_id,
                           const std::function<bool(const std::string&)>& taken) {
  const std::string hex(origin_database_id.substr(0, 8));
  const std::string base = fmt::format("{}@", origin_label);
  std::vector<std::string> candidates;
  if (system.empty()) {
    candidates.push_back(base + hex);
  } else {
    const std::string name = to_safe_name(system).substr(0, 64);
    candidates.push_back(base + name);
    candidates.push_back(fmt::format("{}{}-{}", base, name, hex));
  }
  for (const std::string& label : candidates)
    if (!taken(label)) return label;
  throw Error(ErrorKind::usage, fmt::format("cannot import campaign \"{}\": the label{} {} already taken here by "
                                            "campaigns of other origins; remove one (sweep rm) and import again",
                                            origin_label, candidates.size() == 1 ? " is" : "s are",
                                            fmt::format("\"{}\"", fmt::join(candidates, "\", \""))));
}

}  // namespace sweep::store
