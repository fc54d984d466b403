// sweep ls [--format text|json]
#include <fmt/core.h>

#include "cli/command.h"
#include "report/campaign_json.h"
#include "report/campaign_view.h"
#include "store/store.h"
#include "util/sinks.h"

namespace sweep::cli {

void add_ls(CLI::App& sub, Action& action) {
  struct Options {
    std::string format = "text";
    Paths paths;
  };
  auto o = std::make_shared<Options>();
  sub.add_option("--format", o->format, "text or json (versioned)")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  o->paths.add_to(sub);
  sub.callback([o, &action] {
    action = [o] {
      const store::Store db(o->paths.db());
      std::vector<report::CampaignSummary> rows;
      for (auto& c : db.campaigns()) rows.push_back({c, db.state_counts(c.id)});
      fmt::print("{}", terminal_text(o->format == "json" ? report::campaign_list_json(rows) : report::campaign_list(rows), true));
      return 0;
    };
  });
}

}  // namespace sweep::cli
