#include "cli/command.h"

namespace sweep::cli {

void Paths::add_to(CLI::App& app, bool with_reports) {
  app.add_option("--results", results_dir, "Directory for run directories and the default database")
      ->capture_default_str();
  app.add_option("--db", db_path, "Results database (default: <results>/sweep.db)");
  if (with_reports)
    app.add_option("--reports", reports_dir, "Directory under which reports are written")->capture_default_str();
}

}  // namespace sweep::cli
