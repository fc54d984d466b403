#include "nightly/nightly.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <regex>

#include "report/comparison_view.h"
#include "report/extension.h"
#include "report/write_report.h"
#include "store/store.h"
#include "util/clock.h"
#include "util/error.h"

namespace sweep::nightly {
namespace {

struct OutcomeRow {
  Outcome outcome;
  int exit_code;
  const char* word;
};
constexpr std::array<OutcomeRow, 5> kOutcomes{{{Outcome::passed, 0, "passed"},
                                               {Outcome::pending, 0, "pending"},
                                               {Outcome::pinned, 0, "pinned as the baseline"},
                                               {Outcome::regressed, 1, "REGRESSED"},
                                               {Outcome::failed, 2, "FAILED"}}};

const OutcomeRow& row_of(Outcome o) {
  for (const auto& r : kOutcomes)
    if (r.outcome == o) return r;
  return kOutcomes.back();
}

constexpr const char* kPrefix = "nightly-";
constexpr const char* kDatePattern = "[0-9]{4}-[0-9]{2}-[0-9]{2}";

std::string label_for(const std::string& date) {
  const std::string day = date.empty() ? iso8601(SystemClock().wall()).substr(0, 10) : date;
  static const std::regex kDate(kDatePattern);
  if (!std::regex_match(day, kDate)) throw Error(ErrorKind::usage, fmt::format("--date \"{}\": expected YYYY-MM-DD", day));
  return kPrefix + day;
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

NightlyResult finish(NightlyResult n, Outcome outcome, const std::string& detail) {
  n.outcome = outcome;
  n.summary = fmt::format("{}: {}{}\n", n.label, row_of(outcome).word, detail.empty() ? "" : ": " + detail) + n.summary;
  return n;
}

/// The verdict lines worth a morning's attention: regressed metrics first, then inconclusive ones.
std::string attention(const report::CampaignComparison& c) {
  std::string out;
  for (stats::Verdict v : {stats::Verdict::regressed, stats::Verdict::inconclusive})
    for (const auto& r : c.rows)
      if (r.result.verdict == v)
        out += fmt::format("  {} {}: {} {:+.1f}%: {}\n", r.point, r.metric, stats::name_of(v), 100 * r.result.relative,
                           r.result.reason);
  return out;
}

/// A line per change point of the history (report/history.h), oldest night first: where a metric of a
/// point shifted for good, whether or not the gate noticed.
std::string change_lines(std::vector<report::HistoryChangePoint> changes) {
  std::stable_sort(changes.begin(), changes.end(), [](const auto& a, const auto& b) { return a.night < b.night; });
  std::string out;
  for (const auto& c : changes) {
    const std::string levels = fmt::format("{:.4g} to {:.4g}", c.change.before, c.change.after);
    out += fmt::format("  change point: {}{}: {} from {} (p={:.2g})\n", c.metric, c.point.empty() ? "" : " at " + c.point,
                       std::isfinite(c.change.relative) ? fmt::format("{:+.1f}% ({})", 100 * c.change.relative, levels) : levels,
                       c.campaign, c.change.p);
  }
  return out;
}

/// Tonight against the pinned baseline `baseline_label`: compares, and with --extend-budget, when this
/// call started tonight's campaign and runs it to its end (not detached), first runs what the
/// inconclusive verdicts' power hints ask within the budget (report/extension.h), reports again and
/// compares again. Writes nightly.txt and nightly.junit.xml; returns the finished result.
NightlyResult judge(const NightlyOptions& o, NightlyResult n, store::Store& db, const std::string& baseline_label,
                    const report::ReportRequest& request, report::ReportOutput written, bool started_here) {
  const auto compare_now = [&] {
    return report::compare_campaigns(report::load_campaign(db, baseline_label), report::load_campaign(db, n.label),
                                     o.metrics, o.compare, !o.threshold_given, o.run.site.thresholds);
  };
  auto c = compare_now();
  std::string extended;
  const report::Extension plan =
      started_here && !o.run.detach ? report::plan_extension(c, o.extend_budget) : report::Extension{};
  if (!plan.more.empty()) {
    const runner::RunSummary s = runner::run_more(o.run, n.label, plan.more);
    written = report::write_report(db, n.label, request, o.reports_dir);  // with the added runs
    n.summary = change_lines(written.change_points);
    if (s.failed > 0)
      return finish(n, Outcome::failed, fmt::format("{} of the {} runs added for inconclusive verdicts failed (report: {})",
                                                    s.failed, plan.runs, written.dir));
    c = compare_now();
    extended = fmt::format("; after {} more runs for {} inconclusive verdicts", plan.runs, plan.verdicts);
  }
  report::write_file_atomically(written.dir + "/nightly.txt", report::comparison_text(c));
  report::write_file_atomically(written.dir + "/nightly.junit.xml", report::comparison_junit(c));
  n.summary = attention(c) + n.summary;
  const std::string counts =
      fmt::format("against {} (baseline \"{}\"): {} regressed, {} improved, {} unchanged, {} inconclusive{}; {}/nightly.txt",
                  baseline_label, o.baseline, c.count(stats::Verdict::regressed), c.count(stats::Verdict::improved),
                  c.count(stats::Verdict::unchanged), c.count(stats::Verdict::inconclusive), extended, written.dir);
  return finish(n, c.count(stats::Verdict::regressed) > 0 ? Outcome::regressed : Outcome::passed, counts);
}

}  // namespace

int NightlyResult::exit_code() const { return row_of(outcome).exit_code; }

NightlyResult run_nightly(const NightlyOptions& o) {
  NightlyResult n;
  n.label = label_for(o.date);
  bool exists = false;
  if (std::filesystem::exists(o.run.db_path)) {
    const store::Store db(o.run.db_path);
    exists = db.find_campaign(n.label).has_value();
  }
  const runner::RunSummary s = advance(o, n.label, exists);
  if (s.unfinished > 0)
    return finish(n, Outcome::pending, fmt::format("{} of {} runs still queued; the next call collects them", s.unfinished, s.planned));

  store::Store db(o.run.db_path);
  report::ReportRequest request{{}, std::nullopt, o.figures, report::HistoryRequest{kPrefix, kDatePattern, n.label, o.history_nights, o.metrics}, "",
                                 o.run.site.interconnects};
  auto written = report::write_report(db, n.label, request, o.reports_dir);
  n.summary = change_lines(written.change_points);
  if (s.failed > 0) return finish(n, Outcome::failed, fmt::format("{} of {} runs failed (report: {})", s.failed, s.planned, written.dir));

  const auto pinned = db.baseline(o.baseline);
  if (!pinned || pinned->label == n.label) {
    const auto campaign = db.find_campaign(n.label);
    if (!pinned) db.set_baseline(o.baseline, campaign->id, iso8601(SystemClock().wall()));
    return finish(n, Outcome::pinned, fmt::format("baseline \"{}\" is {}; later nights compare with it", o.baseline, n.label));
  }
  return judge(o, std::move(n), db, pinned->label, request, std::move(written), !exists);
}

}  // namespace sweep::nightly
