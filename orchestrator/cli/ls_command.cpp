// sweep ls
#include <fmt/core.h>

#include "cli/command.h"
#include "report/campaign_view.h"
#include "store/store.h"

namespace sweep::cli {

void add_ls(CLI::App& sub, Action& action) {
  auto paths = std::make_shared<Paths>();
  paths->add_to(sub);
  sub.callback([paths, &action] {
    action = [paths] {
      const store::Store db(paths->db());
      std::vector<report::CampaignSummary> rows;
      for (auto& c : db.campaigns()) rows.push_back({c, db.state_counts(c.id)});
      fmt::print("{}", report::campaign_list(rows));
      return 0;
    };
  });
}

}  // namespace sweep::cli
