#pragma once
// The database schema and its migrations. Internal to store/.
#include <SQLiteCpp/Database.h>

namespace sweep::store {

/// The schema version this build writes. Bump it with a migration in schema.cpp's table.
inline constexpr int kSchemaVersion = 10;

/// Brings `db` to kSchemaVersion: creates the schema in an empty database, runs the migrations of an
/// older one inside one transaction, and refuses (Error(database)) a newer one or a database that is
/// not sweep's. Also sets the journal mode (WAL, or with `wal` false the rollback journal that network
/// filesystems need), foreign keys and the busy timeout.
void prepare_schema(SQLite::Database& db, const std::string& path, bool wal = true);

}  // namespace sweep::store
