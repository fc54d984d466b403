#pragma once
// Names that become path components (campaign labels, experiment names). Pure.
#include <string>
#include <string_view>

namespace sweep {

/// Throws sweep::Error(usage) unless `name` is a safe single path component: 1..128 characters from
/// [A-Za-z0-9._+-], not starting with '.' or '-'. `what` names the thing in the message ("label").
void require_safe_name(std::string_view name, std::string_view what);

/// Throws sweep::Error(usage) unless `label` names a campaign: a safe name (require_safe_name), or an
/// imported campaign's `LABEL@SYSTEM` (docs/forecasts.md, "Systems and bundles"): one '@' between a safe
/// name and 1..80 characters from [A-Za-z0-9._+-]. Either is a safe single path component.
void require_campaign_label(std::string_view label);

/// Maps any text to a safe name by replacing every other character with '_' (and a leading '.'/'-').
std::string to_safe_name(std::string_view text);

}  // namespace sweep
