// sweep check <campaign> [--system NAME] [--format text|json|junit] [--output FILE]
// The campaign against its system's references (the experiment's, then the site file's); a gate
// (docs/nightly.md#exit-codes): exit 7 when a reference is not measured or none applies, 1 when one is
// not met (docs/references.md).
#include <algorithm>

#include <fmt/core.h>

#include "cli/command.h"
#include "cli/summary.h"
#include "report/references.h"
#include "spec/load_report.h"
#include "store/store.h"
#include "util/error.h"
#include "util/exit_codes.h"

namespace sweep::cli {
namespace {

struct Options {
  std::string label, system, format = "text", output;
  Paths paths;
};

int run(const Options& o) {
  const store::Store db(o.paths.db());
  const auto data = report::load_campaign(db, o.label);
  std::vector<spec::Reference> references = spec::references_of_experiment(data.campaign.spec_text, data.campaign.spec_path);
  const spec::Site& site = o.paths.site();
  references.insert(references.end(), site.references.begin(), site.references.end());
  const std::string system = o.system.empty() ? site.name : o.system;
  const auto c = report::check_references(data, references, system);
  const std::string text = o.format == "json"    ? report::references_json(c)
                           : o.format == "junit" ? report::references_junit(c)
                                                 : report::references_text(c);
  print_or_write(text, o.output);
  const bool unmeasured = std::any_of(c.rows.begin(), c.rows.end(), [](const auto& r) { return !r.measured; });
  if (unmeasured) return static_cast<int>(ExitCode::incomparable);
  return c.failed() > 0 ? static_cast<int>(ExitCode::gate_failed) : 0;
}

}  // namespace

void add_check(CLI::App& sub, Action& action) {
  auto o = std::make_shared<Options>();
  sub.add_option("campaign", o->label, "The campaign to check")->required();
  sub.add_option("--system", o->system, "The system whose references apply (default: the site file's name)");
  sub.add_option("--format", o->format, "text, json or junit")->check(CLI::IsMember({"text", "json", "junit"}))->capture_default_str();
  sub.add_option("--output", o->output, "Write to this file instead of standard output");
  o->paths.add_to(sub);
  sub.callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace sweep::cli
