// sweep status <campaign>
#include <fmt/core.h>

#include "cli/command.h"
#include "report/campaign_view.h"
#include "store/store.h"

namespace sweep::cli {

void add_status(CLI::App& sub, Action& action) {
  struct Options {
    std::string label;
    Paths paths;
  };
  auto o = std::make_shared<Options>();
  sub.add_option("campaign", o->label, "Campaign label")->required();
  o->paths.add_to(sub);
  sub.callback([o, &action] {
    action = [o] {
      const store::Store db(o->paths.db());
      fmt::print("{}", report::campaign_status(report::load_campaign(db, o->label)));
      return 0;
    };
  });
}

}  // namespace sweep::cli
