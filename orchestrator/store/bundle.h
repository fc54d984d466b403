#pragma once
// A campaign carried from one results database to another (docs/forecasts.md, "Systems and bundles"):
// the bundle's format, what the exporting side writes into its bundle_info table, writing one, and
// taking one into a database. A bundle is untrusted input: it is read from a private copy with SQLite's
// defensive settings, its tables checked to be tables, and nothing in it becomes a path.
#include <cstdint>
#include <string>
#include <string_view>

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
  int bundle_schema = 0;           // the bundle's schema version as read
  bool migrated = false;           // it was older than this sweep's, and was migrated in the private copy
};

/// What one run of a bundle may hold: the caps ingest puts on a run (parse/extract.h), passed in by the
/// caller, so that a bundle cannot bring in what no run of this sweep could have recorded.
struct BundleLimits {
  std::size_t metric_names_per_run = 0;  // distinct metric names of one attempt
  std::size_t values_per_run = 0;        // metric values of one attempt, all names together
  std::size_t metric_name_bytes = 0;     // the longest metric name
};

class Store;

/// Writes campaign `label` of `db` alone (its points, runs, attempts, metrics, provenance, settings,
/// changes, forecast rows and stored experiment; not its scheduler submissions) into a new SQLite
/// database of this schema at `bundle_path` (absent or empty), with table bundle_info: `format`,
/// `source_database_id`, `system`, and `facts`. Read in one snapshot. Error(not_found) without the
/// campaign; the caller removes a file a failure left.
void export_bundle(const Store& db, std::string_view label, const BundleFacts& facts, const std::string& bundle_path);

/// Copies the campaign of the bundle at `bundle_path` into `db` in one transaction, with new ids and
/// the label of store/bundle_label.h, its origin (database id and label) recorded: a second import of
/// it changes nothing and says so (already_imported). The file is read from a private copy with SQLite's
/// defensive settings, an older schema migrated in that copy. Error(database) naming the file when it
/// is not a bundle, is damaged, or is of a newer format or schema (both versions named); Error(usage)
/// for a campaign of `db` itself. Error(database) naming the run, before anything is copied, when an
/// attempt holds more than `limits` allow.
ImportResult import_bundle(Store& db, const std::string& bundle_path, const BundleLimits& limits);

}  // namespace sweep::store
