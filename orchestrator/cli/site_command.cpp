// sweep site [experiment.yaml] [--set k=v]... [--executor E] [--site FILE]
#include <fmt/core.h>

#include <algorithm>

#include "cli/command.h"
#include "cli/overrides.h"
#include "spec/load.h"

namespace sweep::cli {

void add_site(CLI::App& sub, Action& action) {
  struct Options {
    std::string experiment;
    std::vector<std::string> sets;
    std::string executor;
    Paths paths;
  };
  auto o = std::make_shared<Options>();
  sub.add_option("experiment", o->experiment, "Show the effective settings of this experiment on this site");
  sub.add_option("--set", o->sets, "Override a matrix key or top-level value: key=value (repeatable)");
  sub.add_option("--executor", o->executor, "As sweep run --executor")->check(CLI::IsMember(executor_names()));
  o->paths.add_to(sub);
  sub.callback([o, &action] {
    action = [o] {
      const spec::Site& site = o->paths.site();
      if (site.path.empty())
        fmt::print("site file: none (--site, $SWEEP_SITE, ~/.config/sweep/site.yaml and /etc/sweep/site.yaml give none)\n");
      else
        fmt::print("site file: {}{} (chosen by {})\n", site.path, site.name.empty() ? "" : ", " + site.name, site.found_by);
      std::optional<spec::Experiment> exp;
      if (!o->experiment.empty()) {
        exp = spec::load_file(o->experiment, parse_overrides(o->sets));
        if (!o->executor.empty()) {
          exp->executor = o->executor;
          exp->executor_where = SourceLocation{"--executor"};
        }
        spec::apply_site(site, *exp);
      } else if (!o->sets.empty() || !o->executor.empty()) {
        throw Error(ErrorKind::usage, "--set and --executor need an experiment file");
      }
      const auto settings = spec::effective_settings(site, exp ? &*exp : nullptr);
      std::size_t name_w = 7, value_w = 5;
      for (const auto& s : settings) {
        name_w = std::max(name_w, s.name.size());
        value_w = std::min<std::size_t>(48, std::max(value_w, s.value.size()));
      }
      fmt::print("{:<{}}  {:<{}}  {}\n", "setting", name_w, "value", value_w, "from");
      for (const auto& s : settings) {
        std::string value = s.value;
        std::replace(value.begin(), value.end(), '\n', ' ');
        fmt::print("{:<{}}  {:<{}}  {}\n", s.name, name_w, value, value_w, s.origin);
      }
      if (!o->paths.results_dir.empty()) fmt::print("(--results {} overrides the results setting)\n", o->paths.results_dir);
      return 0;
    };
  });
}

}  // namespace sweep::cli
