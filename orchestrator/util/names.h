#pragma once
// Names that become path components (campaign labels, experiment names). Pure.
#include <string>
#include <string_view>

namespace sweep {

/// Throws sweep::Error(usage) unless `name` is a safe single path component: 1..128 characters from
/// [A-Za-z0-9._+-], not starting with '.' or '-'. `what` names the thing in the message ("label").
void require_safe_name(std::string_view name, std::string_view what);

/// Maps any text to a safe name by replacing every other character with '_' (and a leading '.'/'-').
std::string to_safe_name(std::string_view text);

}  // namespace sweep
