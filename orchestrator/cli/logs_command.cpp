// sweep logs <campaign> [--where 'n=3'] [--rep R] [--stderr] [--follow]
#include <fmt/core.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>

#include "cli/command.h"
#include "report/campaign_data.h"
#include "report/run_logs.h"
#include "store/store.h"
#include "util/error.h"
#include "util/sinks.h"

namespace sweep::cli {
namespace {

volatile std::sig_atomic_t g_stop_follow = 0;
void on_stop_follow(int) { g_stop_follow = 1; }

}  // namespace

void add_logs(CLI::App& sub, Action& action) {
  struct Options {
    std::string label;
    Paths paths;
    std::string where;
    int rep = -1;
    bool stderr_stream = false;
    bool follow = false;
  };
  auto o = std::make_shared<Options>();
  sub.add_option("campaign", o->label, "Campaign label")->required();
  sub.add_option("--where", o->where, "The point: name=value entries separated by commas (n=3,threads=2)");
  sub.add_option("--rep", o->rep, "The repetition (0-based)")->check(CLI::NonNegativeNumber);
  sub.add_flag("--stderr", o->stderr_stream, "Show the run's stderr instead of its stdout");
  sub.add_flag("--follow,-f", o->follow, "Keep printing what the run writes, like tail -f, until its attempt ends");
  o->paths.add_to(sub);
  sub.callback([o, &action] {
    action = [o] {
      const store::Store db(o->paths.db());
      const report::CampaignData data = report::load_campaign(db, o->label);
      if (!data.campaign.origin_database_id.empty())  // its run directories are another system's paths
        throw Error(ErrorKind::usage, fmt::format("campaign \"{}\" was imported from system \"{}\": its runs' output "
                                                  "stayed there (sweep logs {} in its own database)",
                                                  o->label, terminal_text(data.campaign.system), data.campaign.origin_label));
      const report::LogChoice choice = report::choose_log_run(
          data, report::parse_point_filter(o->where), o->rep < 0 ? std::nullopt : std::optional<int>(o->rep), o->stderr_stream);
      fmt::print(stderr, "sweep: {}\n", terminal_text(report::describe_choice(choice)));
      const bool terminal = ::isatty(STDOUT_FILENO) != 0;
      const auto print = [terminal](std::string_view bytes) {
        const std::string text = terminal ? terminal_text(bytes, true) : std::string(bytes);
        std::fwrite(text.data(), 1, text.size(), stdout);
        std::fflush(stdout);
      };
      const std::int64_t run_id = choice.run->id;
      const int attempt = choice.run->attempt;
      const auto running = [&] {
        if (!o->follow) return false;
        for (const auto& r : db.runs(data.campaign.id))
          if (r.id == run_id) return r.state == store::RunState::running && r.attempt == attempt;
        return false;
      };
      std::signal(SIGINT, on_stop_follow);
      std::signal(SIGTERM, on_stop_follow);
      report::follow_file(choice.path, 0, running, [] { return g_stop_follow != 0; }, print);
      return 0;
    };
  });
}

}  // namespace sweep::cli
