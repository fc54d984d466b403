// sweep check <campaign> [--system NAME] [--format text|json|junit] [--output FILE]
// The campaign against its system's references (the experiment's, then the site file's); a gate
// (docs/nightly.md#exit-codes): exit 7 when a reference is not measured or none applies, 1 when one is
// not met (docs/references.md). A campaign whose recorded system is another than the one whose references
// apply is refused (exit 2) unless --allow-hardware-change; the text opens with the campaign's hardware
// key values, so a reader sees what the references were met on (docs/forecasts.md, "The hardware key").
#include <algorithm>

#include <fmt/core.h>

#include "cli/command.h"
#include "cli/summary.h"
#include "report/hardware_change.h"
#include "report/references.h"
#include "spec/hardware_key.h"
#include "spec/load_report.h"
#include "store/store.h"
#include "util/error.h"
#include "util/exit_codes.h"
#include "util/sinks.h"

namespace sweep::cli {
namespace {

struct Options {
  std::string label, system, format = "text", output;
  std::vector<std::string> hardware_key;  // --hardware-key; empty: the site's, else the default
  bool allow_hardware_change = false;
  Paths paths;
};

/// "changed: system A -> B\n" for a campaign recorded on another system than `system`, allowed; ""
/// when the two agree or either is unnamed. Error(usage) naming both when not allowed.
std::string system_change(const store::CampaignRecord& campaign, const std::string& system, bool allowed) {
  if (campaign.system.empty() || system.empty() || campaign.system == system) return "";
  if (!allowed)
    throw Error(ErrorKind::usage,
                fmt::format("{} ran on system \"{}\", not on \"{}\" whose references apply; to check it anyway, pass "
                            "--allow-hardware-change (or name its system: --system {})",
                            campaign.label, terminal_text(campaign.system), terminal_text(system),
                            terminal_text(campaign.system)));
  return fmt::format("changed: system {} -> {}\n", terminal_text(campaign.system), terminal_text(system));
}

/// What the text opens with: the system change allowed, then "hardware: KEY VALUE; ..." of the campaign.
std::string opening(const store::Store& db, const Options& o, const report::CampaignData& data, const std::string& system) {
  const auto key = spec::hardware_key_in_force(o.hardware_key, o.paths.site().hardware_key);
  const std::string changed = system_change(data.campaign, system, o.allow_hardware_change);
  return changed + "hardware: " + report::hardware_values_text(key, report::provenance_values(db, data.campaign, key)) + "\n";
}

int run(const Options& o) {
  const store::Store db(o.paths.db());
  const auto data = report::load_campaign(db, o.label);
  std::vector<spec::Reference> references = spec::references_of_experiment(data.campaign.spec_text, data.campaign.spec_path);
  const spec::Site& site = o.paths.site();
  references.insert(references.end(), site.references.begin(), site.references.end());
  const std::string system = o.system.empty() ? site.name : o.system;
  const std::string first = terminal_text(opening(db, o, data, system), true);
  const auto c = report::check_references(data, references, system);
  const std::string text = o.format == "json"    ? report::references_json(c)
                           : o.format == "junit" ? report::references_junit(c)
                                                 : first + report::references_text(c);
  if (o.format != "text") fmt::print(stderr, "{}", first);  // JSON and JUnit keep their layout
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
  sub.add_option("--hardware-key", o->hardware_key,
                 "Provenance keys shown as the hardware the campaign ran on (default: the site file's hardware_key, "
                 "else gpu.model,gpu.count,cpu_model)")
      ->delimiter(',');
  sub.add_flag("--allow-hardware-change", o->allow_hardware_change,
               "Check a campaign recorded on another system than the one whose references apply");
  sub.add_option("--format", o->format, "text, json or junit")->check(CLI::IsMember({"text", "json", "junit"}))->capture_default_str();
  sub.add_option("--output", o->output, "Write to this file instead of standard output");
  o->paths.add_to(sub);
  sub.callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace sweep::cli
