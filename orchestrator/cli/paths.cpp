#include "cli/command.h"

#include <cstdlib>

#include "sched/executors.h"
#include "util/resources.h"
#include "util/safe_files.h"

#ifndef SWEEP_DEFAULT_TEMPLATE_DIR
#error "SWEEP_DEFAULT_TEMPLATE_DIR must be defined by the build"
#endif

namespace sweep::cli {

std::string default_template_dir() {
  return resource_dir("SWEEP_TEMPLATES", "../share/sweep/templates", SWEEP_DEFAULT_TEMPLATE_DIR);
}

std::vector<std::string> executor_names() {
  return {sched::kExecutorNames.begin(), sched::kExecutorNames.end()};
}

std::string Paths::results() const {
  if (!results_dir.empty()) return results_dir;
  if (site().results) return site().results->value;
  return std::string(store::kDefaultResultsDir);
}

std::string Paths::reports() const {
  if (!reports_dir.empty()) return reports_dir;
  if (site().reports) return site().reports->value;
  return "reports";
}

const spec::Site& Paths::site() const {
  if (!site_) site_ = std::make_shared<const spec::Site>(spec::find_site(spec::site_lookup(site_path)));
  return *site_;
}

void Paths::add_site_to(CLI::App& app) {
  app.add_option("--site", site_path, "Site file with the cluster's defaults (default: $SWEEP_SITE, "
                                      "~/.config/sweep/site.yaml, /etc/sweep/site.yaml; none: no site)");
}

void Paths::add_to(CLI::App& app, bool with_reports) {
  app.add_option("--results", results_dir, "Directory for run directories and the default database "
                                           "(default: the site file's results, else results)");
  add_site_to(app);
  app.add_option("--db", db_path, "Results database (default: " + store::database_path("<results>") + ")");
  app.add_flag("--allow-shared", allow_shared,
               "Trust a results directory, database or reports directory that another member of your group owns "
               "or your group can write (as the site file's shared_group: true); never one writable by everyone");
  // For the subcommand given (parse_complete_callback runs for it alone), asked only when a path is
  // found that only sharing would make trusted: the site is read then.
  app.parse_complete_callback([this] {
    set_group_sharing([this] { return allow_shared || (site().shared_group && site().shared_group->value == "true"); });
  });
  if (with_reports)
    app.add_option("--reports", reports_dir,
                   "Directory under which reports are written (default: the site file's reports, else reports)");
}

}  // namespace sweep::cli
