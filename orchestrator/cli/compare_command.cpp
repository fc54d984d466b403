// sweep compare <baseline> <candidate> | --against NAME <candidate>  [--metrics m,..] [--threshold 0.02] [--fail-on regressed]
//               [--format text|json|junit] [--output FILE]
// Exit 0, or 1 with --fail-on regressed when any metric regressed beyond the threshold.
#include <cstdio>
#include <fstream>
#include <future>

#include <fmt/core.h>

#include "cli/command.h"
#include "cli/summary.h"
#include "report/comparison_view.h"
#include "store/store.h"
#include "util/error.h"

namespace sweep::cli {

namespace {

struct Options {
  std::vector<std::string> labels;
  std::string against, format = "text", fail_on, output;
  std::vector<std::string> metrics;
  stats::CompareOptions compare;
  bool threshold_given = false;  // --threshold on the command line: it applies to every metric
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
  const auto c = report::compare_campaigns(base, cand, o.metrics, o.compare, !o.threshold_given, o.paths.site().thresholds);
  const std::string text = o.format == "json"    ? report::comparison_json(c)
                           : o.format == "junit" ? report::comparison_junit(c)
                                                 : report::comparison_text(c);
  if (o.output.empty()) {
    fmt::print("{}", text);
  } else {
    std::ofstream out(o.output, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw Error(ErrorKind::io, fmt::format("cannot write \"{}\"", o.output));
    fmt::print(stderr, "wrote {}\n", o.output);
  }
  return !o.fail_on.empty() && c.count(stats::Verdict::regressed) > 0 ? 1 : 0;
}

}  // namespace

void add_compare(CLI::App& sub, Action& action) {
  auto o = std::make_shared<Options>();
  sub.add_option("campaigns", o->labels, "Baseline and candidate labels (only the candidate with --against)")
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
  sub.add_option("--fail-on", o->fail_on, "Exit 1 when a metric has this verdict: regressed")->check(CLI::IsMember({"regressed"}));
  sub.add_option("--format", o->format, "text, json or junit")->check(CLI::IsMember({"text", "json", "junit"}))->capture_default_str();
  sub.add_option("--output", o->output, "Write to this file instead of standard output");
  o->paths.add_to(sub);
  sub.callback([o, threshold, &action] {
    o->threshold_given = threshold->count() > 0;
    action = [o] { return run(*o); };
  });
}

}  // namespace sweep::cli
