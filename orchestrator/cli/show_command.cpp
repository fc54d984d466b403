// sweep show <campaign>
#include <fmt/core.h>

#include "cli/command.h"
#include "report/campaign_view.h"
#include "store/store.h"

namespace sweep::cli {

void add_show(CLI::App& sub, Action& action) {
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
      const auto data = report::load_campaign(db, o->label);
      store::KeyValues provenance;
      for (auto it = data.runs.rbegin(); it != data.runs.rend() && provenance.empty(); ++it)
        if (it->attempt > 0) provenance = db.provenance(it->id, it->attempt);
      fmt::print("{}", report::campaign_detail(data, provenance));
      return 0;
    };
  });
}

}  // namespace sweep::cli
