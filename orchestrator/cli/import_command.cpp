// sweep import <bundle>
// Takes a campaign that `sweep export --bundle` wrote in another database into this one, as LABEL@SYSTEM
// (docs/forecasts.md, "Systems and bundles"). Importing the same bundle again changes nothing.
#include <fmt/core.h>

#include "cli/command.h"
#include "runner/run_limits.h"
#include "store/bundle.h"
#include "store/store.h"
#include "util/safe_files.h"
#include "util/sinks.h"

namespace sweep::cli {

void add_import(CLI::App& sub, Action& action) {
  struct Options {
    std::string bundle;
    Paths paths;
  };
  auto o = std::make_shared<Options>();
  sub.add_option("bundle", o->bundle, "The bundle file (sweep export --bundle LABEL > FILE)")->required();
  o->paths.add_to(sub);
  sub.callback([o, &action] {
    action = [o] {
      make_directories(o->paths.results());
      store::Store db(o->paths.db());
      const store::ImportResult r = store::import_bundle(db, o->bundle, runner::kRunRecordLimits);
      const std::string system = r.system.empty() ? "a system without a name" : "system " + terminal_text(r.system);
      if (r.already_imported) {
        fmt::print("{}: campaign \"{}\" of {} is already imported as \"{}\"; nothing changed (to take a newer export of "
                   "it, sweep rm {} first)\n",
                   terminal_text(o->bundle), r.origin_label, system, r.label, r.label);
        return 0;
      }
      fmt::print("imported campaign \"{}\" of {} as \"{}\": {} runs{}\n", r.origin_label, system, r.label, r.runs,
                 r.migrated ? fmt::format(" (its schema version {} migrated)", r.bundle_schema) : "");
      return 0;
    };
  });
}

}  // namespace sweep::cli
