#pragma once
// A campaign carried from one results database to another (docs/forecasts.md, "Systems and bundles"):
// the bundle's format, what the exporting side writes into its bundle_info table, and what an import did.
// Store::export_bundle and Store::import_bundle (store/bundle.cpp) write and read bundles.
#include <cstdint>
#include <string>

#include "store/records.h"

namespace sweep::store {

/// bundle_info's `format`. Bump it (and docs/architecture.md's formats table) when a bundle's layout
/// beyond sweep's schema changes; an import refuses a newer one.
inline constexpr int kBundleFormat = 1;

/// What the exporting side says of itself, written to bundle_info beside `format`, `source_database_id`
/// and `system` (which the store fills in).
struct BundleFacts {
  std::string exported_at;    // ISO-8601 UTC
  std::string sweep_version;
  KeyValues host;             // the exporting host's facts, each stored as `host.<key>`
};

/// What Store::import_bundle did.
struct ImportResult {
  std::string label;               // the campaign's label in this database
  bool already_imported = false;   // true: it was there before, under `label`, and nothing changed
  std::string system;              // the campaign's system (campaigns.system)
  std::string origin_database_id;  // the database it was first exported from
  std::string origin_label;        // its label there
  std::int64_t runs = 0;           // runs copied (0 when already imported)
  int bundle_schema = 0;           // the bundle's schema version as read (older ones were migrated in the copy)
};

}  // namespace sweep::store
