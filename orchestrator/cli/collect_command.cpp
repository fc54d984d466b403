// sweep collect <campaign>   |   sweep cancel <campaign>
#include <unistd.h>

#include "cli/command.h"
#include "cli/stop_signals.h"
#include "cli/summary.h"
#include "runner/run_campaign.h"

namespace sweep::cli {
namespace {

struct Options {
  runner::RunOptions run;
  Paths paths;
};

std::shared_ptr<Options> add_common(CLI::App& sub) {
  auto o = std::make_shared<Options>();
  o->run.template_dir = default_template_dir();
  sub.add_option("campaign", o->run.resume, "Campaign label")->required();
  sub.add_option("--templates", o->run.template_dir, "Job-script template directory")
      ->capture_default_str()->each([&r = o->run](const std::string&) { r.templates_given = true; });
  o->paths.add_to(sub);
  return o;
}

void prepare(Options& o) {
  o.run.results_dir = o.paths.results();
  o.run.site = o.paths.site();
  o.run.db_path = o.paths.db();
}

}  // namespace

void add_collect(CLI::App& sub, Action& action) {
  auto o = add_common(sub);
  add_slurm_options(sub, o->run);
  sub.add_flag("--rerun-failed", o->run.collect_reruns_failed,
               "Submit the failed and cancelled runs again (one more attempt each, as sweep run --resume does); "
               "without it, collect retries only what the experiment's retries allow, so a cron job never loops");
  sub.callback([o, &action] {
    action = [o] {
      install_stop_signals();
      prepare(*o);
      o->run.collect = true;
      return print_summary(runner::collect_campaign(o->run));
    };
  });
}

void add_cancel(CLI::App& sub, Action& action) {
  auto o = add_common(sub);
  sub.callback([o, &action] {
    action = [o] {
      prepare(*o);
      return print_cancelled(runner::cancel_campaign(o->run));
    };
  });
}

}  // namespace sweep::cli
