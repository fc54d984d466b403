#include "nightly/nightly.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <optional>
#include <regex>

#include "report/comparison_view.h"
#include "report/extension.h"
#include "report/failure_groups.h"
#include "report/hardware_change.h"
#include "report/write_report.h"
#include "spec/hardware_key.h"
#include "spec/load.h"
#include "store/store.h"
#include "util/atomic_file.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/exit_codes.h"
#include "util/names.h"
#include "util/sinks.h"

namespace sweep::nightly {
namespace {

struct OutcomeRow {
  Outcome outcome;
  int exit_code;
  const char* word;
};
// The exit codes are the gates' (util/exit_codes.h, docs/nightly.md#exit-codes).
constexpr std::array<OutcomeRow, 9> kOutcomes{{{Outcome::passed, 0, "passed"},
                                               {Outcome::pending, 0, "pending"},
                                               {Outcome::pinned, 0, "pinned as the baseline"},
                                               {Outcome::undecided, 0, "UNDECIDED, every comparison was inconclusive"},
                                               {Outcome::inconclusive, 1, "INCONCLUSIVE"},
                                               {Outcome::regressed, 1, "REGRESSED"},
                                               {Outcome::incomparable, 7, "COULD NOT COMPARE"},
                                               {Outcome::other_hardware, 2, "REFUSED, the baseline ran on other hardware"},
                                               {Outcome::failed, 8, "FAILED"}}};

const OutcomeRow& row_of(Outcome o) {
  for (const auto& r : kOutcomes)
    if (r.outcome == o) return r;
  return kOutcomes.back();
}

constexpr const char* kPrefix = "nightly-";
constexpr const char* kDatePattern = "[0-9]{4}-[0-9]{2}-[0-9]{2}";
constexpr std::size_t kLongestName = 100;  // a label is at most 128 characters (util/names.h)

/// One experiment's series of nights: its labels' prefix and its pin's default name.
struct Series {
  std::string prefix;  // "nightly-<name>-"; "nightly-" for a series begun before series were per experiment
  std::string pin;     // "nightly-<name>"; "nightly" for such a series
};

/// The series of `experiment` in `db` (nullptr: no database yet): nightly-<name>-<date>, pinned as
/// nightly-<name>, unless the database holds this experiment's nights as nightly-<date> and none under
/// the new prefix: then those labels and the pin "nightly" go on being used, as before.
Series series_of(const store::Store* db, const std::string& experiment) {
  const std::string name = to_safe_name(experiment).substr(0, kLongestName);
  const Series own{fmt::format("{}{}-", kPrefix, name), kPrefix + name};
  if (!db) return own;
  static const std::regex kLegacy(std::string(kPrefix) + kDatePattern);
  bool legacy = false;
  for (const auto& c : db->campaigns()) {
    if (c.label.starts_with(own.prefix)) return own;
    legacy = legacy || (c.experiment == experiment && std::regex_match(c.label, kLegacy));
  }
  return legacy ? Series{kPrefix, "nightly"} : own;
}

std::string label_for(const std::string& date, const Series& series) {
  const std::string day = date.empty() ? iso8601(SystemClock().wall()).substr(0, 10) : date;
  static const std::regex kDate(kDatePattern);
  if (!std::regex_match(day, kDate)) throw Error(ErrorKind::usage, fmt::format("--date \"{}\": expected YYYY-MM-DD", day));
  return series.prefix + day;
}

/// Runs the campaign, resumes it, or (detached on Slurm) makes one collect pass.
runner::RunSummary advance(const NightlyOptions& o, const std::string& label, bool exists) {
  runner::RunOptions r = o.run;
  if (!exists) {
    r.label = label;
    return runner::run_campaign(r);
  }
  r.resume = label;
  r.experiment_path.clear();
  r.overrides.clear();
  if (r.detach) return runner::collect_campaign(r);
  return runner::run_campaign(r);
}

/// The pinned baseline: its name, the campaign it pins and when it was pinned.
struct Pin {
  std::string name, label, set_at;
};

NightlyResult finish(NightlyResult n, Outcome outcome, const std::string& detail) {
  n.outcome = outcome;
  n.summary = fmt::format("{}: {}{}\n", n.label, row_of(outcome).word, detail.empty() ? "" : ": " + detail) + n.summary;
  return n;
}

/// `n` with why the night's runs failed, grouped by cause (report/failure_groups.h), after its verdict line.
NightlyResult with_failures(NightlyResult n, const runner::RunSummary& s) {
  n.summary += report::failure_summary(s.failed_runs, s.points);
  return n;
}

/// The verdict lines worth a morning's attention: missing ones first, then regressed metrics, then
/// inconclusive ones.
std::string attention(const report::CampaignComparison& c) {
  std::string out;
  if (c.rows.empty() && c.missing.empty()) out += fmt::format("  nothing compared: {}\n", report::kNothingCompared);
  for (const auto& row : report::attention_rows(c)) out += "  " + terminal_text(row) + "\n";
  return out;
}

/// A line per change point of the history (report/history.h), oldest night first: where a metric of a
/// point shifted for good, whether or not the gate noticed.
std::string change_lines(std::vector<report::HistoryChangePoint> changes) {
  std::stable_sort(changes.begin(), changes.end(), [](const auto& a, const auto& b) { return a.night < b.night; });
  std::string out;
  for (const auto& c : changes) {
    const std::string levels = fmt::format("{:.4g} to {:.4g}", c.change.before, c.change.after);
    out += fmt::format("  change point: {}{}: {} from {} (p={:.2g})\n", terminal_text(c.metric),
                       c.point.empty() ? "" : " at " + terminal_text(c.point),
                       std::isfinite(c.change.relative) ? fmt::format("{:+.1f}% ({})", 100 * c.change.relative, levels) : levels,
                       c.campaign, c.change.p);
  }
  return out;
}

/// Writes tonight's report, opening with the gate's verdict (report/gate_verdict.h); the history's
/// change points become the summary's tail.
report::ReportOutput report_night(const NightlyOptions& o, NightlyResult& n, store::Store& db, report::ReportRequest request,
                                  Outcome outcome, const Pin* pin, std::string detail, std::vector<std::string> rows = {}) {
  report::GateVerdict v{row_of(outcome).word, row_of(outcome).exit_code != 0, "", "", "", std::move(detail), std::move(rows)};
  if (pin) v.baseline = pin->name, v.baseline_campaign = pin->label, v.baseline_date = pin->set_at;
  request.verdict = std::move(v);
  auto written = report::write_report(db, n.label, request, o.reports_dir);
  n.summary = change_lines(written.change_points);
  n.figure_errors = written.figure_errors;
  for (const auto& e : n.figure_errors) n.summary += fmt::format("  figure not drawn: {}\n", e);
  return written;
}

/// The outcome of a comparison as a gate.
Outcome outcome_of(const report::CampaignComparison& c, bool fail_on_inconclusive) {
  switch (c.gate()) {
    case report::Gate::incomparable: return Outcome::incomparable;
    case report::Gate::regressed: return Outcome::regressed;
    case report::Gate::undecided: return fail_on_inconclusive ? Outcome::inconclusive : Outcome::undecided;
    case report::Gate::passed: break;
  }
  return fail_on_inconclusive && c.count(stats::Verdict::inconclusive) > 0 ? Outcome::inconclusive : Outcome::passed;
}

/// With --extend-budget, when this call started tonight's campaign and runs it to its end (not
/// detached): runs what the inconclusive verdicts' power hints ask within the budget
/// (report/extension.h). Returns the summary of the added runs, or nullopt when none were run.
std::optional<std::pair<runner::RunSummary, report::Extension>> extend_tonight(const NightlyOptions& o, const std::string& label,
                                                                              const report::CampaignComparison& c,
                                                                              bool started_here) {
  if (!started_here || o.run.detach) return std::nullopt;
  report::Extension plan = report::plan_extension(c, o.extend_budget);
  if (plan.more.empty()) return std::nullopt;
  runner::RunSummary s = runner::run_more(o.run, label, plan.more);
  return std::make_pair(std::move(s), std::move(plan));
}

/// The pinned baseline's hardware against tonight's (report/hardware_change.h).
report::HardwareChange hardware_of(const NightlyOptions& o, const store::Store& db, const Pin& pin, const std::string& label) {
  const auto key = spec::hardware_key_in_force(o.hardware_key, o.run.site.hardware_key);
  const auto value_of = [&](const std::string& l) { return report::provenance_values(db, *db.find_campaign(l), key); };
  return report::hardware_change(key, value_of(pin.label), value_of(label));
}

/// Tonight against the pinned baseline: compares (after extending tonight's campaign where asked),
/// writes the report with the verdict first, nightly.txt and nightly.junit.xml; returns the result.
NightlyResult judge(const NightlyOptions& o, NightlyResult n, store::Store& db, const Pin& pin,
                    const report::ReportRequest& request, bool started_here) {
  const auto compare_now = [&] {
    return report::compare_campaigns(report::load_campaign(db, pin.label), report::load_campaign(db, n.label), o.metrics,
                                     o.compare, !o.threshold_given, o.run.site.thresholds);
  };
  const report::HardwareChange hardware = hardware_of(o, db, pin, n.label);
  if (hardware.changed() && !o.allow_hardware_change) {
    const std::string why = fmt::format("{}; or make tonight the baseline: sweep baseline set {} --name {}",
                                        report::hardware_refusal(hardware, pin.label, n.label), n.label, pin.name);
    const auto written = report_night(o, n, db, request, Outcome::other_hardware, &pin, why);
    write_file_atomically(written.dir + "/nightly.txt", why + "\n");
    return finish(n, Outcome::other_hardware, why);
  }
  report::CampaignComparison c;
  try {
    c = compare_now();
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::incomparable) throw;
    const std::string why = fmt::format("{}; to make tonight the baseline: sweep baseline set {} --name {}", e.message(),
                                        n.label, pin.name);
    const auto written = report_night(o, n, db, request, Outcome::incomparable, &pin, why);
    write_file_atomically(written.dir + "/nightly.txt", why + "\n");
    return finish(n, Outcome::incomparable, why);
  }
  std::string extended;
  if (const auto more = extend_tonight(o, n.label, c, started_here)) {
    const auto& [s, plan] = *more;
    if (s.failed > 0) {
      const std::string why = fmt::format("{} of the {} runs added for inconclusive verdicts failed", s.failed, plan.runs);
      const auto written = report_night(o, n, db, request, Outcome::failed, &pin, why);
      return with_failures(finish(n, Outcome::failed, fmt::format("{} (report: {})", why, written.dir)), s);
    }
    c = compare_now();
    extended = fmt::format("; after {} more runs for {} inconclusive verdicts", plan.runs, plan.verdicts);
  }
  const Outcome outcome = outcome_of(c, o.fail_on_inconclusive);
  const std::string counts = fmt::format("{} ({} comparisons){}", report::verdict_counts(c), c.rows.size(), extended);
  const auto written = report_night(o, n, db, request, outcome, &pin, counts, report::attention_rows(c));
  const std::string hardware_lines = report::hardware_change_lines(hardware);
  write_file_atomically(written.dir + "/nightly.txt", terminal_text(hardware_lines, true) + report::comparison_text(c));
  write_file_atomically(written.dir + "/nightly.junit.xml", report::comparison_junit(c));
  n.summary = hardware_lines + attention(c) + n.summary;
  return finish(n, outcome,
                fmt::format("against {} (baseline \"{}\"): {}; {}/nightly.txt", pin.label, pin.name, counts, written.dir));
}

}  // namespace

int NightlyResult::exit_code() const {
  const int gate = row_of(outcome).exit_code;
  return gate == 0 && !figure_errors.empty() ? static_cast<int>(ExitCode::io) : gate;
}

NightlyResult run_nightly(const NightlyOptions& o) {
  const spec::Experiment experiment = spec::load_file(o.run.experiment_path, o.run.overrides);
  std::optional<store::Store> before;
  if (std::filesystem::exists(o.run.db_path)) before.emplace(o.run.db_path);
  const Series series = series_of(before ? &*before : nullptr, experiment.name);
  NightlyResult n;
  n.label = label_for(o.date, series);
  const std::string pin_name = o.baseline.empty() ? series.pin : o.baseline;
  const auto tonight = before ? before->find_campaign(n.label) : std::nullopt;
  if (tonight && tonight->experiment != experiment.name)
    throw Error(ErrorKind::usage, fmt::format("{} is a night of experiment \"{}\", not of \"{}\" ({}): nothing was run",
                                              n.label, tonight->experiment, experiment.name, o.run.experiment_path));
  before.reset();
  const runner::RunSummary s = advance(o, n.label, tonight.has_value());
  if (s.unfinished > 0)
    return finish(n, Outcome::pending, fmt::format("{} of {} runs still queued; the next call collects them", s.unfinished, s.planned));

  store::Store db(o.run.db_path);
  // A failed night's history shows every metric: the ones asked for may be what its runs never produced.
  const report::ReportRequest request{{}, std::nullopt, o.figures,
                                      report::HistoryRequest{series.prefix, kDatePattern, n.label, o.history_nights,
                                                             s.failed > 0 ? std::vector<std::string>{} : o.metrics},
                                      "", o.run.site.interconnects, std::nullopt};
  if (s.failed > 0) {
    const std::string why = fmt::format("{} of {} runs failed", s.failed, s.planned);
    const auto written = report_night(o, n, db, request, Outcome::failed, nullptr, why);
    return with_failures(finish(n, Outcome::failed, fmt::format("{} (report: {})", why, written.dir)), s);
  }
  const auto pinned = db.baseline(pin_name);
  if (!pinned || pinned->label == n.label) {
    const auto campaign = db.find_campaign(n.label);
    if (!pinned) db.set_baseline(pin_name, campaign->id, iso8601(SystemClock().wall()));
    const std::string detail = fmt::format("baseline \"{}\" is {}; later nights compare with it", pin_name, n.label);
    report_night(o, n, db, request, Outcome::pinned, nullptr, detail);
    return finish(n, Outcome::pinned, detail);
  }
  Pin pin{pin_name, pinned->label, ""};
  for (const auto& b : db.baselines())
    if (b.name == pin_name) pin.set_at = b.set_at;
  return judge(o, std::move(n), db, pin, request, !tonight.has_value());
}

}  // namespace sweep::nightly
