#pragma once
// What names a campaign on the command line and in paths: a local label (util/names.h's safe name) or
// an imported campaign's LABEL@SYSTEM (docs/forecasts.md, "Systems and bundles"). Pure.
#include <string_view>

namespace sweep {

/// Throws sweep::Error(usage) unless `label` names a campaign: a safe name (require_safe_name), or an
/// imported campaign's `LABEL@SYSTEM`: one '@' between a safe name and 1..80 characters from
/// [A-Za-z0-9._+-]. Either is a safe single path component. A local label never holds '@'.
void require_campaign_label(std::string_view label);

}  // namespace sweep
