#pragma once
// Where the results database is when no --db names it. The one definition that the CLI (cli/paths.cpp),
// the campaign drivers (runner/) and the next-step hints (cli/summary.cpp) share (docs/database.md).
#include <string>
#include <string_view>

namespace sweep::store {

/// The results directory when neither --results nor the site file's `results` names one.
inline constexpr std::string_view kDefaultResultsDir = "results";
/// The database's file name inside the results directory.
inline constexpr std::string_view kDatabaseFileName = "sweep.db";

/// `db_path` when it is not empty (--db), else <results_dir>/sweep.db.
std::string database_path(std::string_view results_dir, std::string_view db_path = {});

/// Whether `db_path` is the database a command opens given neither --db nor --results, without a site
/// file's `results`: results/sweep.db.
bool is_default_database(std::string_view db_path);

}  // namespace sweep::store
