// sweep status <campaign> [--watch [--interval S]] [--format text|json]
#include <fmt/core.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <thread>

#include "cli/command.h"
#include "report/campaign_json.h"
#include "report/campaign_view.h"
#include "runner/controller_lock.h"
#include "runner/executors.h"
#include "runner/scheduler_look.h"
#include "sched/executors.h"
#include "store/store.h"
#include "util/sinks.h"

namespace sweep::cli {
namespace {

/// A batch campaign under way that no controller drives: only `sweep collect` moves it on.
bool detached(const report::CampaignData& data) {
  return sched::is_batch(data.campaign.executor) && data.campaign.ended_at.empty() &&
         !runner::controller_alive(data.campaign.run_root);
}

/// Puts what the scheduler says now of a detached campaign's tasks (runner/scheduler_look.h) in `data`, in
/// place of what the database last recorded. Returns the line to end the watch with when the scheduler
/// holds none of them any more ("" otherwise, and when it does not answer: the database's view stays).
std::string look_now(report::CampaignData& data, const store::Store& db, sched::Scheduler& scheduler) {
  const auto look = runner::look_at_scheduler(db, data.campaign, scheduler);
  if (!look) return "";
  data.scheduler_states = look->states;
  if (!look->states.empty()) return "";
  return fmt::format("sweep: {} holds none of campaign {}'s jobs now; sweep collect {} ingests what ended{}\n",
                     scheduler.controller(), data.campaign.label, data.campaign.label,
                     look->under_way ? "" : " and submits the rest");
}

volatile std::sig_atomic_t g_stop_watch = 0;
void on_stop_watch(int) { g_stop_watch = 1; }

/// Prints the status every `interval_s` until the campaign has ended or SIGINT: on a terminal the
/// screen is redrawn, otherwise a new status is printed only when it changed.
int watch(const store::Store& db, const std::string& label, double interval_s) {
  std::signal(SIGINT, on_stop_watch);
  std::signal(SIGTERM, on_stop_watch);
  const bool terminal = ::isatty(STDOUT_FILENO) != 0;
  std::string shown, ending;
  std::unique_ptr<sched::Scheduler> scheduler;  // asked directly while the campaign is detached
  while (!g_stop_watch && ending.empty()) {
    report::CampaignData data = report::load_campaign(db, label);
    if (detached(data)) {
      if (!scheduler)
        fmt::print(stderr, "sweep: campaign {0} is detached and no sweep drives it now: this view asks {1} for its jobs; "
                           "results are recorded when sweep collect {0} runs (by hand or from cron)\n",
                   terminal_text(label), (scheduler = runner::make_scheduler(data.campaign.executor))->controller());
      ending = look_now(data, db, *scheduler);
    }
    const std::string text = report::campaign_status(data);  // without elapsed times: what counts as a change
    if (text != shown || terminal) {
      fmt::print("{}{}", terminal ? "\033[H\033[2J" : (shown.empty() ? "" : "\n"),
                 terminal_text(report::campaign_status(data, std::chrono::system_clock::now()), true));
      std::fflush(stdout);
      shown = text;
    }
    if (!data.campaign.ended_at.empty() || !ending.empty()) break;
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(interval_s);
    while (!g_stop_watch && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  fmt::print(stderr, "{}", terminal_text(ending, true));
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
  sub.add_flag("--watch", o->watch, "Show the status again as it changes, until the campaign has ended (Ctrl-C stops); of a detached "
                           "Slurm campaign, asks squeue and ends when Slurm holds none of its jobs");
  sub.add_option("--interval", o->interval_s, "With --watch: seconds between looks at the database (and at squeue)")
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
