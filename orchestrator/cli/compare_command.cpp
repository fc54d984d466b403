// sweep compare <baseline> <candidate> | --against NAME <candidate>  [--metrics m,..] [--threshold 0.02]
//               [--alpha 0.05] [--correction holm|bh|none] [--fail-on regressed[,inconclusive]]
//               [--format text|json|junit] [--output FILE] [--extend-budget N [-j N]]
//               [--map OLD=NEW] [--allow-different] [--hardware-key KEY,KEY] [--allow-hardware-change]
// A baseline whose hardware key's values differ from the candidate's is refused (exit 2) unless
// --allow-hardware-change; with it, the change is printed first (docs/forecasts.md, "The hardware key").
// With --fail-on, a gate (docs/nightly.md#exit-codes): 7 when something the baseline had is missing from
// the candidate or nothing was compared, 1 when a metric regressed (or, with --fail-on inconclusive, a
// verdict is inconclusive), else 0. Without it, a report: 0, or 7 when nothing was compared.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <future>

#include <fmt/core.h>

#include "cli/command.h"
#include "cli/summary.h"
#include "report/comparison_view.h"
#include "report/extension.h"
#include "report/hardware_change.h"
#include "runner/run_campaign.h"
#include "spec/hardware_key.h"
#include "store/store.h"
#include "util/error.h"
#include "util/exit_codes.h"
#include "util/sinks.h"

namespace sweep::cli {

namespace {

struct Options {
  std::vector<std::string> labels;
  std::string against, format = "text", output;
  std::vector<std::string> fail_on;  // regressed, inconclusive
  std::vector<std::string> map;      // OLD=NEW
  report::PointMatching matching;
  std::vector<std::string> metrics;
  stats::CompareOptions compare;
  bool threshold_given = false;  // --threshold on the command line: it applies to every metric
  std::size_t extend_budget = 0;  // runs the candidate may get to decide inconclusive verdicts
  std::size_t jobs = 1;           // ... run this many at once (local executor)
  std::vector<std::string> hardware_key;  // --hardware-key; empty: the site's, else the default
  bool allow_hardware_change = false;
  Paths paths;
};

// The baseline's label: the first of two labels, or the campaign pinned as --against.
std::string baseline_label(const store::Store& db, const Options& o) {
  if (o.labels.size() != (o.against.empty() ? 2u : 1u))
    throw Error(ErrorKind::usage, "give a baseline and a candidate label, or --against NAME and a candidate label");
  if (o.against.empty()) return o.labels.front();
  const auto pinned = db.baseline(o.against);
  if (!pinned)
    throw Error(ErrorKind::not_found,
                fmt::format("no baseline named \"{}\" (sweep baseline set <campaign> --name {})", o.against, o.against));
  return pinned->label;
}

/// --extend-budget: runs what the inconclusive verdicts' power hints ask of the candidate, within the
/// budget (report/extension.h). Returns whether any run was added.
bool extend(const Options& o, const report::CampaignComparison& c) {
  const report::Extension plan = report::plan_extension(c, o.extend_budget);
  if (plan.more.empty()) {
    if (plan.left_out > 0)
      fmt::print(stderr, "sweep: --extend-budget {}: no inconclusive point fits the budget ({} verdicts stay inconclusive)\n",
                 o.extend_budget, plan.left_out);
    return false;
  }
  fmt::print(stderr, "sweep: extending {}: {} more runs at {} points for {} inconclusive verdicts (budget {}{})\n",
             c.candidate, plan.runs, plan.more.size(), plan.verdicts, o.extend_budget,
             plan.left_out ? fmt::format("; {} verdicts left out, their points did not fit", plan.left_out) : "");
  runner::RunOptions r;
  r.results_dir = o.paths.results();
  r.db_path = o.paths.db();
  r.template_dir = default_template_dir();
  r.jobs = o.jobs;
  r.site = o.paths.site();
  const runner::RunSummary s = runner::run_more(r, c.candidate, plan.more);
  fmt::print(stderr, "sweep: {}: {} runs, {} succeeded, {} failed\n", s.label, s.planned, s.succeeded, s.failed);
  return true;
}

/// The exit code of the comparison (the header's contract).
int exit_code(const report::CampaignComparison& c, const Options& o) {
  const auto asked = [&](const char* v) { return std::find(o.fail_on.begin(), o.fail_on.end(), v) != o.fail_on.end(); };
  if (c.rows.empty() || (!o.fail_on.empty() && !c.missing.empty())) return static_cast<int>(ExitCode::incomparable);
  if (asked("regressed") && c.count(stats::Verdict::regressed) > 0) return static_cast<int>(ExitCode::gate_failed);
  if (asked("inconclusive") && c.count(stats::Verdict::inconclusive) > 0) return static_cast<int>(ExitCode::gate_failed);
  return 0;
}

std::vector<std::pair<std::string, std::string>> parse_map(const std::vector<std::string>& map) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& m : map) {
    const auto eq = m.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == m.size())
      throw Error(ErrorKind::usage, fmt::format("--map \"{}\": expected OLD=NEW, the baseline's parameter name and the candidate's", m));
    out.emplace_back(m.substr(0, eq), m.substr(eq + 1));
  }
  return out;
}

/// The hardware key's change from `base` to `cand`; Error(usage) when it changed and is not allowed.
report::HardwareChange judge_hardware(const store::Store& db, const Options& o, const report::CampaignData& base,
                                      const report::CampaignData& cand) {
  const auto key = spec::hardware_key_in_force(o.hardware_key, o.paths.site().hardware_key);
  auto change = report::hardware_change(key, report::provenance_values(db, base.campaign, key),
                                        report::provenance_values(db, cand.campaign, key));
  report::refuse_unless_allowed(change, o.allow_hardware_change, base.campaign.label, cand.campaign.label);
  return change;
}

int run(const Options& o) {
  const store::Store db(o.paths.db());
  const std::string base_label = baseline_label(db, o);
  // The two campaigns are read side by side, each through its own connection.
  auto reading = std::async(std::launch::async, [&] {
    const store::Store own(o.paths.db());
    return report::load_campaign(own, o.labels.back());
  });
  const auto base = report::load_campaign(db, base_label);
  const auto cand = reading.get();
  const report::HardwareChange hardware = judge_hardware(db, o, base, cand);
  report::PointMatching matching = o.matching;
  matching.map = parse_map(o.map);
  report::CampaignComparison c;
  try {
    c = report::compare_campaigns(base, cand, o.metrics, o.compare, !o.threshold_given, o.paths.site().thresholds,
                                  matching);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::incomparable || o.against.empty()) throw;
    throw Error(ErrorKind::incomparable, fmt::format("{}; or re-pin: sweep baseline set {} --name {}", e.message(),
                                                     o.labels.back(), o.against));
  }
  if (o.extend_budget > 0 && extend(o, c)) {
    const store::Store own(o.paths.db());
    c = report::compare_campaigns(base, report::load_campaign(own, o.labels.back()), o.metrics, o.compare,
                                  !o.threshold_given, o.paths.site().thresholds, matching);
  }
  const std::string text = o.format == "json"    ? report::comparison_json(c)
                           : o.format == "junit" ? report::comparison_junit(c)
                                                 : terminal_text(report::hardware_change_lines(hardware), true) +
                                                       report::comparison_text(c);
  // JSON and JUnit keep their layout: an allowed hardware change is said on stderr, before them.
  if (o.format != "text") fmt::print(stderr, "{}", terminal_text(report::hardware_change_lines(hardware), true));
  print_or_write(text, o.output);
  return exit_code(c, o);
}

}  // namespace

void add_compare(CLI::App& sub, Action& action) {
  auto o = std::make_shared<Options>();
  sub.footer("Usage: sweep compare [OPTIONS] BASELINE CANDIDATE\n"
             "       sweep compare [OPTIONS] --against NAME CANDIDATE   (NAME pinned by sweep baseline set)\n"
             "Exit: 7 when nothing was compared; with --fail-on also 7 when something the baseline had is missing, "
             "and 1 when a metric has that verdict; else 0 (docs/nightly.md#exit-codes).");
  sub.add_option("campaigns", o->labels, "BASELINE CANDIDATE: two campaign labels (only CANDIDATE with --against)")
      ->required()
      ->expected(1, 2);
  sub.add_option("--against", o->against, "Compare with the baseline pinned under this name (sweep baseline set)");
  sub.add_option("--metrics", o->metrics, "Metrics to compare (default: all both have)")->delimiter(',');
  auto* threshold =
      sub.add_option("--threshold", o->compare.threshold,
                     "Relative change below which a significant change does not count (0.02 = 2%), for every metric; "
                     "without it, the candidate experiment's thresholds: apply, and 0 elsewhere")
          ->check(CLI::Range(0.0, 10.0))
          ->capture_default_str();
  sub.add_option("--alpha", o->compare.alpha, "Significance level")->check(CLI::Range(1e-6, 0.5))->capture_default_str();
  add_correction_option(sub, o->compare);
  sub.add_option("--fail-on", o->fail_on,
                 "Be a gate: exit 7 when something the baseline had is missing, 1 when a metric has this verdict "
                 "(regressed, inconclusive; comma-separated)")
      ->delimiter(',')
      ->check(CLI::IsMember({"regressed", "inconclusive"}));
  sub.add_option("--map", o->map, "Line up a renamed parameter: OLD=NEW, the baseline's name and the candidate's (repeatable)");
  sub.add_flag("--allow-different", o->matching.allow_different,
               "Compare campaigns whose points differ (another experiment, an axis renamed or changed) by what lines up");
  sub.add_option("--hardware-key", o->hardware_key,
                 "Provenance keys whose values make the baseline other hardware (default: the site file's hardware_key, "
                 "else gpu.model,gpu.count,cpu_model)")
      ->delimiter(',');
  sub.add_flag("--allow-hardware-change", o->allow_hardware_change,
               "Compare with a baseline from other hardware (its hardware key's values differ); the change is printed first");
  sub.add_option("--format", o->format, "text, json or junit")->check(CLI::IsMember({"text", "json", "junit"}))->capture_default_str();
  sub.add_option("--output", o->output, "Write to this file instead of standard output");
  sub.add_option("--extend-budget", o->extend_budget,
                 "Run up to N more runs of the candidate where a verdict is inconclusive, as the power hints ask, "
                 "then compare again")
      ->check(CLI::Range(0, 1000000));
  sub.add_option("-j,--jobs", o->jobs, "With --extend-budget: local runs at once (give what the candidate ran with)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  o->paths.add_to(sub);
  sub.callback([o, threshold, &action] {
    o->threshold_given = threshold->count() > 0;
    action = [o] { return run(*o); };
  });
}

}  // namespace sweep::cli
