// sweep show <campaign> [--format text|json] [--efficiency]
#include <fmt/core.h>

#include "cli/command.h"
#include "report/campaign_json.h"
#include "report/campaign_view.h"
#include "report/efficiency_render.h"
#include "store/store.h"
#include "util/sinks.h"

namespace sweep::cli {
namespace {

/// The campaign's recorded edits (sweep reparse, rerun, extend: store campaign_changes), oldest first.
void print_changes(const std::vector<store::ChangeRecord>& changes) {
  if (changes.empty()) return;
  fmt::print("\nchanges (sweep reparse, rerun, extend):\n");
  for (const auto& c : changes)
    fmt::print("  {}  {}@{}  {}: {}\n", c.at, terminal_text(c.user), terminal_text(c.host), c.kind, terminal_text(c.what));
}

}  // namespace

void add_show(CLI::App& sub, Action& action) {
  struct Options {
    std::string label;
    std::string format = "text";
    bool efficiency = false;
    Paths paths;
  };
  auto o = std::make_shared<Options>();
  sub.add_option("campaign", o->label, "Campaign label")->required();
  sub.add_option("--format", o->format, "text or json (versioned)")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  sub.add_flag("--efficiency", o->efficiency,
               "Per point: time, memory, CPUs and GPUs used against requested, and suggested time/mem/escalate");
  o->paths.add_to(sub);
  sub.callback([o, &action] {
    action = [o] {
      const store::Store db(o->paths.db());
      const auto data = report::load_campaign(db, o->label);
      if (o->efficiency) {
        const auto points = report::efficiency(data);
        fmt::print("{}", terminal_text(o->format == "json" ? report::efficiency_json(data.campaign.label, points)
                                                           : report::efficiency_text(points),
                                       true));
        return 0;
      }
      store::KeyValues provenance;
      for (auto it = data.runs.rbegin(); it != data.runs.rend() && provenance.empty(); ++it)
        if (it->attempt > 0) provenance = db.provenance(it->id, it->attempt);
      const auto matches = report::load_run_matches(db, data);
      const auto changes = db.changes(data.campaign.id);
      fmt::print("{}", terminal_text(o->format == "json" ? report::campaign_detail_json(data, provenance, matches, changes)
                                                         : report::campaign_detail(data, provenance, matches),
                                     true));
      if (o->format == "text") print_changes(changes);
      return 0;
    };
  });
}

}  // namespace sweep::cli
