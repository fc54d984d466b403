#include "cli/command.h"

#include <cstdlib>

#ifndef SWEEP_DEFAULT_TEMPLATE_DIR
#error "SWEEP_DEFAULT_TEMPLATE_DIR must be defined by the build"
#endif

namespace sweep::cli {

std::string default_template_dir() {
  const char* env = std::getenv("SWEEP_TEMPLATES");
  return env && *env ? env : SWEEP_DEFAULT_TEMPLATE_DIR;
}

void Paths::add_to(CLI::App& app, bool with_reports) {
  app.add_option("--results", results_dir, "Directory for run directories and the default database")
      ->capture_default_str();
  app.add_option("--db", db_path, "Results database (default: <results>/sweep.db)");
  if (with_reports)
    app.add_option("--reports", reports_dir, "Directory under which reports are written")->capture_default_str();
}

}  // namespace sweep::cli
