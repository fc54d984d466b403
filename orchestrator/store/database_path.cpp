#include "store/database_path.h"

namespace sweep::store {

std::string database_path(std::string_view results_dir, std::string_view db_path) {
  if (!db_path.empty()) return std::string(db_path);
  return std::string(results_dir) + "/" + std::string(kDatabaseFileName);
}

bool is_default_database(std::string_view db_path) { return db_path == database_path(kDefaultResultsDir); }

}  // namespace sweep::store
