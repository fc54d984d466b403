#pragma once
// The label an imported campaign gets (docs/forecasts.md, "Systems and bundles"). Pure.
#include <functional>
#include <string>
#include <string_view>

namespace sweep::store {

/// `LABEL@SYSTEM`, where SYSTEM is the origin's system name made a safe name (util/names.h: any other
/// character becomes '_', at most 64 characters); `LABEL@SYSTEM-<first 8 hex of origin_database_id>`
/// when `taken` says the first is in use; `LABEL@<8 hex>` when the system has no name. `origin_label`
/// must be a safe name and `origin_database_id` at least 8 characters (the caller checked both).
/// Error(usage) when every candidate is taken. A local label never holds '@', so none of these clashes
/// with one.
std::string imported_label(std::string_view origin_label, std::string_view system, std::string_view origin_database_id,
                           const std::function<bool(const std::string&)>& taken);

}  // namespace sweep::store
