// sweep reparse <campaign> [--from exp.yaml]
#include <fmt/core.h>

#include "cli/command.h"
#include "runner/reparse.h"

namespace sweep::cli {

void add_reparse(CLI::App& sub, Action& action) {
  struct Options {
    runner::ReparseOptions reparse;
    Paths paths;
  };
  auto o = std::make_shared<Options>();
  sub.add_option("campaign", o->reparse.label, "Campaign label")->required();
  sub.add_option("--from", o->reparse.from_path,
                 "Experiment file whose metrics: section replaces the stored one (nothing else may differ)");
  o->paths.add_to(sub);
  sub.callback([o, &action] {
    action = [o] {
      o->reparse.db_path = o->paths.db();
      const runner::ReparseSummary s = runner::reparse_campaign(o->reparse);
      fmt::print("{}: read the logs of {} runs again ({} skipped: unfinished or without a run directory); metric values "
                 "{} -> {}; {} now succeeded, {} now failed; metric rules revision {} ({}){}\n",
                 s.label, s.runs_read, s.runs_skipped, s.values_before, s.values_after, s.now_succeeded, s.now_failed,
                 s.revision, s.rules_hash.substr(0, 12),
                 s.experiment_replaced ? "; the stored experiment now has the new metrics: section" : "");
      fmt::print("next: sweep show {} (the change is listed there), sweep report {}\n", s.label, s.label);
      return 0;
    };
  });
}

}  // namespace sweep::cli
