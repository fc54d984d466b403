#include "util/campaign_label.h"

#include <fmt/core.h>

#include "util/error.h"
#include "util/names.h"

namespace sweep {

void require_campaign_label(std::string_view label) {
  const auto at = label.find('@');
  if (at == std::string_view::npos) return require_safe_name(label, "campaign label");
  require_safe_name(label.substr(0, at), "campaign label (before its '@')");
  const std::string_view system = label.substr(at + 1);
  if (system.empty() || system.size() > 80)
    throw Error(ErrorKind::usage, fmt::format("campaign label \"{}\": the part after '@' must be 1 to 80 characters long", label));
  // A safe name's characters, not starting with '.' or '-': what to_safe_name leaves as it is.
  if (to_safe_name(system) != system)
    throw Error(ErrorKind::usage, fmt::format("campaign label \"{}\": the part after '@' may only contain letters, "
                                              "digits and . _ + -, not first . or -",
                                              label));
}

}  // namespace sweep
