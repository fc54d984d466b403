// sweep rm <campaign> [--yes] [--keep-files]
#include <fmt/core.h>
#include <unistd.h>

#include <iostream>

#include "cli/command.h"
#include "runner/campaign_removal.h"
#include "util/error.h"
#include "util/sinks.h"

namespace sweep::cli {
namespace {

/// --yes answers for the user; otherwise a terminal is asked, and without one the removal is refused.
bool confirmed(const std::string& what, bool yes) {
  if (yes) return true;
  if (::isatty(STDIN_FILENO) == 0)
    throw Error(ErrorKind::usage, fmt::format("sweep rm would remove {}; not on a terminal, so give --yes to confirm; "
                                              "nothing was removed",
                                              terminal_text(what)));
  fmt::print(stderr, "remove {}? [y/N] ", terminal_text(what));
  std::string answer;
  std::getline(std::cin, answer);
  return answer == "y" || answer == "yes" || answer == "Y";
}

}  // namespace

void add_rm(CLI::App& sub, Action& action) {
  struct Options {
    runner::RemoveOptions remove;
    bool yes = false;
    Paths paths;
  };
  auto o = std::make_shared<Options>();
  sub.add_option("campaign", o->remove.label, "Campaign label")->required();
  sub.add_flag("--yes,-y", o->yes, "Remove without asking (needed when not on a terminal)");
  sub.add_flag("--keep-files", o->remove.keep_files, "Remove the database rows only; keep the run directories");
  o->paths.add_to(sub);
  sub.callback([o, &action] {
    action = [o] {
      o->remove.db_path = o->paths.db();
      const runner::RemovalSummary s =
          runner::remove_campaign(o->remove, [&](const std::string& what) { return confirmed(what, o->yes); });
      if (!s.removed) {
        fmt::print(stderr, "sweep: nothing was removed\n");
        return 0;
      }
      fmt::print("removed campaign \"{}\" ({} runs){}\n", terminal_text(s.label), s.runs,
                 s.imported        ? std::string(" (imported: its rows only)")
                 : s.files_removed ? fmt::format(" and its run directories {}", s.run_root)
                                   : fmt::format("; its run directories stay in {}", s.run_root));
      return 0;
    };
  });
}

}  // namespace sweep::cli
