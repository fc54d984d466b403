#pragma once
// What differs between the site file a campaign started with (recorded with it: runner/campaign_settings.h)
// and the one this command found, for the note that `sweep run --resume` and `sweep collect` print when
// the campaign keeps its own. Pure.
#include <string>

#include "spec/site.h"

namespace sweep::spec {

/// The change from `then` to `now` in words, or "" when they give the same settings from the same path
/// (a comment or a layout change is no change). A different path is named first ("the site file was A,
/// now B"; "none" for no file), then each setting of effective_settings(site, nullptr) that differs:
/// "resources.partition gpu -> cpu", "env.X added (1)", "setup[2] removed (was ...)", in the order of
/// `then`'s settings, then the added ones. Secret values are compared as shown (masked).
std::string site_change(const Site& then, const Site& now);

}  // namespace sweep::spec
