// sweep plan <experiment.yaml> [--set k=v]... [--format table|json|csv]
#include <fmt/core.h>

#include <cstdio>

#include "cli/command.h"
#include "cli/overrides.h"
#include "matrix/expand.h"
#include "matrix/plan_format.h"
#include "runner/layout_check.h"
#include "spec/load.h"

namespace sweep::cli {

void add_plan(CLI::App& sub, Action& action) {
  struct Options {
    std::string experiment;
    std::vector<std::string> sets;
    std::string format = "table";
  };
  auto o = std::make_shared<Options>();
  sub.add_option("experiment", o->experiment, "Experiment YAML file")->required();
  sub.add_option("--set", o->sets, "Override a matrix key or top-level value: key=value (repeatable)");
  sub.add_option("--format", o->format, "table, json or csv")->capture_default_str();
  sub.callback([o, &action] {
    action = [o] {
      const auto format = matrix::plan_format_from_name(o->format);
      const auto experiment = spec::load_file(o->experiment, parse_overrides(o->sets));
      const matrix::Expansion expansion(experiment);
      runner::check_layouts(experiment, expansion);  // what the bundled programs would refuse at start
      matrix::write_plan(stdout, experiment.name, expansion, experiment.repetitions, format);
      if (experiment.until && format == matrix::PlanFormat::table)
        fmt::print("adaptive: up to {} repetitions per point, until the 95% CI of {} is within {}% of its mean\n",
                   experiment.max_repetitions, experiment.until->metric, 100 * experiment.until->ci95_rel);
      std::fflush(stdout);
      return 0;
    };
  });
}

}  // namespace sweep::cli
