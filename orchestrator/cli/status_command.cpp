// sweep status <campaign> [--watch [--interval S]] [--format text|json]
#include <fmt/core.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <thread>

#include "cli/command.h"
#include "report/campaign_json.h"
#include "report/campaign_view.h"
#include "store/store.h"
#include "util/sinks.h"

namespace sweep::cli {
namespace {

volatile std::sig_atomic_t g_stop_watch = 0;
void on_stop_watch(int) { g_stop_watch = 1; }

/// Prints the status every `interval_s` until the campaign has ended or SIGINT: on a terminal the
/// screen is redrawn, otherwise a new status is printed only when it changed.
int watch(const store::Store& db, const std::string& label, double interval_s) {
  std::signal(SIGINT, on_stop_watch);
  std::signal(SIGTERM, on_stop_watch);
  const bool terminal = ::isatty(STDOUT_FILENO) != 0;
  std::string shown;
  while (!g_stop_watch) {
    const report::CampaignData data = report::load_campaign(db, label);
    const std::string text = report::campaign_status(data);  // without elapsed times: what counts as a change
    if (text != shown || terminal) {
      fmt::print("{}{}", terminal ? "\033[H\033[2J" : (shown.empty() ? "" : "\n"),
                 terminal_text(report::campaign_status(data, std::chrono::system_clock::now()), true));
      std::fflush(stdout);
      shown = text;
    }
    if (!data.campaign.ended_at.empty()) break;
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(interval_s);
    while (!g_stop_watch && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return 0;
}

}  // namespace

void add_status(CLI::App& sub, Action& action) {
  struct Options {
    std::string label;
    Paths paths;
    bool watch = false;
    double interval_s = 5;
    std::string format = "text";
  };
  auto o = std::make_shared<Options>();
  sub.add_option("campaign", o->label, "Campaign label")->required();
  sub.add_flag("--watch", o->watch, "Show the status again as it changes, until the campaign has ended (Ctrl-C stops)");
  sub.add_option("--interval", o->interval_s, "With --watch: seconds between looks at the database")
      ->capture_default_str()->check(CLI::Range(0.1, 3600.0));
  sub.add_option("--format", o->format, "text or json (versioned)")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  o->paths.add_to(sub);
  sub.callback([o, &action] {
    action = [o] {
      const store::Store db(o->paths.db());
      if (o->watch) return watch(db, o->label, o->interval_s);
      const auto data = report::load_campaign(db, o->label);
      const auto now = std::chrono::system_clock::now();
      fmt::print("{}", terminal_text(o->format == "json" ? report::campaign_status_json(data, now)
                                                         : report::campaign_status(data, now), true));
      return 0;
    };
  });
}

}  // namespace sweep::cli
