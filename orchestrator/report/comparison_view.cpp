#include "report/comparison_view.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "report/table.h"
#include "spec/load_report.h"
#include "stats/multiple.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/strings.h"
#include "util/value.h"

namespace sweep::report {
namespace {

std::string percent(double x) { return std::isfinite(x) ? fmt::format("{:+.2f}%", 100 * x) : "?"; }

/// The threshold of `metric` at point `p`: its `thresholds:` entry (a number, or an expression over
/// the point's parameters and derived values), else `fallback`.
double threshold_at(const std::vector<spec::MetricThreshold>& thresholds, const std::string& metric,
                    const store::PointRecord& p, double fallback) {
  const auto t = std::find_if(thresholds.begin(), thresholds.end(), [&](const auto& x) { return x.metric == metric; });
  if (t == thresholds.end()) return fallback;
  if (t->value) return *t->value;
  const PointValues at = point_values(p);
  spec::Expr e = *t->expr;
  e.bind(at.names);
  const Value v = e.eval(at.values);
  if (!v.is_number() || v.as_number() < 0 || v.as_number() > 10)
    fail_at(t->where, fmt::format("the threshold of \"{}\" must be a relative change from 0 to 10, got {} at point {}",
                                  metric, v.text(), point_label(p)));
  return v.as_number();
}

}  // namespace

std::size_t CampaignComparison::count(stats::Verdict v) const {
  return static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [v](const ComparisonRow& r) { return r.result.verdict == v; }));
}

CampaignComparison compare_campaigns(const CampaignData& baseline, const CampaignData& candidate,
                                     const std::vector<std::string>& metrics, const stats::CompareOptions& options,
                                     bool metric_thresholds, const std::vector<spec::MetricThreshold>& site_thresholds) {
  // The experiment's entries first: the first entry of a metric wins (threshold_at).
  std::vector<spec::MetricThreshold> thresholds;
  if (metric_thresholds) {
    thresholds = spec::thresholds_of_experiment(candidate.campaign.spec_text, candidate.campaign.spec_path);
    thresholds.insert(thresholds.end(), site_thresholds.begin(), site_thresholds.end());
  }
  CampaignComparison out{baseline.campaign.label, candidate.campaign.label, options.correction, {}, {}, {}};
  const auto base = point_results(baseline), cand = point_results(candidate);
  std::map<std::string, const PointResult*> by_id;
  for (const auto& r : base) by_id[r.point->point_id] = &r;
  std::set<std::string> seen;
  const std::vector<std::string> all_b = metric_names(base), all_c = metric_names(cand);
  for (const auto& m : metrics)
    if (std::find(all_b.begin(), all_b.end(), m) == all_b.end() && std::find(all_c.begin(), all_c.end(), m) == all_c.end())
      throw Error(ErrorKind::usage, fmt::format("--metrics: neither campaign has a metric \"{}\"{}", m, did_you_mean(m, all_b)));
  std::size_t most_rows = 0;
  for (const auto& c : cand) most_rows += c.metrics.size();
  out.rows.reserve(most_rows);  // rows are large (two summaries each): no regrowth
  std::vector<stats::Better> betters;
  betters.reserve(most_rows);
  for (const auto& c : cand) {
    const auto partner = by_id.find(c.point->point_id);
    if (partner == by_id.end()) {
      out.only_in_candidate.push_back(point_label(*c.point));
      continue;
    }
    seen.insert(c.point->point_id);
    const std::string label = point_label(*c.point);
    for (const auto& [name, cm] : c.metrics) {
      if (!metrics.empty() && std::find(metrics.begin(), metrics.end(), name) == metrics.end()) continue;
      const auto bm = partner->second->metrics.find(name);
      if (bm == partner->second->metrics.end()) continue;
      stats::Better better = stats::Better::none;
      stats::parse_better(cm.better, better);
      stats::CompareOptions own = options;
      own.threshold = threshold_at(thresholds, name, *c.point, options.threshold);
      out.rows.push_back({label, c.point->point_id, name, cm.unit, cm.better, stats::compare(bm->second.values, cm.values, better, own)});
      betters.push_back(better);
    }
  }
  // Every point x metric is one family: its verdicts are judged again with adjusted p-values.
  std::vector<stats::Comparison> family;
  family.reserve(out.rows.size());
  for (auto& r : out.rows) family.push_back(std::move(r.result));
  stats::correct(family, betters, options);
  for (std::size_t i = 0; i < out.rows.size(); ++i) out.rows[i].result = std::move(family[i]);
  for (const auto& b : base)
    if (!seen.count(b.point->point_id)) out.only_in_baseline.push_back(point_label(*b.point));
  return out;
}

std::string comparison_text(const CampaignComparison& c) {
  const std::string p_header = c.correction == stats::Correction::none ? "p" : fmt::format("p ({})", stats::name_of(c.correction));
  std::vector<std::array<std::string, 7>> lines{{"point", "metric", "baseline", "candidate", "change [95% CI]", p_header, "verdict"}};
  for (const auto& r : c.rows) {
    const auto& x = r.result;
    lines.push_back({r.point, r.metric + (r.unit.empty() ? "" : " (" + r.unit + ")"),
                     fmt::format("{} ({})", format_number(x.baseline.mean), x.baseline.n),
                     fmt::format("{} ({})", format_number(x.candidate.mean), x.candidate.n),
                     fmt::format("{} [{}, {}]", percent(x.relative), percent(x.relative_low), percent(x.relative_high)),
                     fmt::format("{:.3g}", x.p_adjusted), std::string(stats::name_of(x.verdict))});
  }
  std::array<std::size_t, 7> width{};
  for (const auto& l : lines)
    for (std::size_t i = 0; i < l.size(); ++i) width[i] = std::max(width[i], l[i].size());
  std::string out;
  for (const auto& l : lines) {
    std::string row;
    for (std::size_t i = 0; i < l.size(); ++i) row += fmt::format("{:<{}}  ", l[i], width[i]);
    out += row.substr(0, row.find_last_not_of(' ') + 1) + "\n";
  }
  for (const auto& r : c.rows)
    if (r.result.verdict == stats::Verdict::inconclusive || r.result.verdict == stats::Verdict::regressed)
      out += fmt::format("{} {}: {}: {}\n", r.point, r.metric, stats::name_of(r.result.verdict), r.result.reason);
  for (const auto& p : c.only_in_baseline) out += fmt::format("only in {}: {}\n", c.baseline, p);
  for (const auto& p : c.only_in_candidate) out += fmt::format("only in {}: {}\n", c.candidate, p);
  out += fmt::format("{} vs {}: {} regressed, {} improved, {} unchanged, {} changed, {} inconclusive ({} comparisons, "
                     "p-values corrected: {})\n", c.candidate,
                     c.baseline, c.count(stats::Verdict::regressed), c.count(stats::Verdict::improved),
                     c.count(stats::Verdict::unchanged), c.count(stats::Verdict::changed),
                     c.count(stats::Verdict::inconclusive), c.rows.size(), stats::name_of(c.correction));
  return out;
}

std::string comparison_json(const CampaignComparison& c) {
  std::string out = fmt::format(R"({{"version": {}, "baseline": {}, "candidate": {}, "correction": "{}", "rows": [)",
                                kComparisonJsonVersion, json_string(c.baseline), json_string(c.candidate),
                                stats::name_of(c.correction));
  for (std::size_t i = 0; i < c.rows.size(); ++i) {
    const auto& r = c.rows[i];
    const auto& x = r.result;
    out += fmt::format(
        R"({}{{"point": {}, "metric": {}, "unit": {}, "better": {}, "baseline": {{"n": {}, "mean": {}, "sd": {}}}, )"
        R"("candidate": {{"n": {}, "mean": {}, "sd": {}}}, "relative": {}, "relative_ci": [{}, {}], "welch_p": {}, )"
        R"("welch_p_adjusted": {}, "threshold": {}, "mann_whitney_p": {}, "hedges_g": {}, "verdict": "{}", "reason": {}, )"
        R"("repetitions_needed": {}}})",
        i ? ", " : "", json_string(r.point), json_string(r.metric), json_string(r.unit), json_string(r.better), x.baseline.n,
        json_number(x.baseline.mean), json_number(x.baseline.sd), x.candidate.n, json_number(x.candidate.mean), json_number(x.candidate.sd),
        json_number(x.relative), json_number(x.relative_low), json_number(x.relative_high), json_number(x.welch.p),
        json_number(x.p_adjusted), json_number(x.threshold), json_number(x.mann_whitney.p),
        json_number(x.effect_size), stats::name_of(x.verdict), json_string(x.reason), x.repetitions_needed);
  }
  return out + "]}\n";
}

std::string comparison_junit(const CampaignComparison& c) {
  std::string cases;
  for (const auto& r : c.rows) {
    cases += fmt::format(R"(    <testcase classname="{}" name="{}">)", xml_text(r.point), xml_text(r.metric));
    if (r.result.verdict == stats::Verdict::regressed)
      cases += fmt::format(R"x(<failure message="regressed {} (p {:.3g}, adjusted {:.3g})">{}</failure>)x",
                           xml_text(percent(r.result.relative)), r.result.welch.p, r.result.p_adjusted, xml_text(r.result.reason));
    else if (r.result.verdict == stats::Verdict::inconclusive)
      cases += fmt::format(R"(<skipped message="inconclusive: {}"/>)", xml_text(r.result.reason));
    cases += "</testcase>\n";
  }
  return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"{} vs {}\" tests=\"{}\" "
                     "failures=\"{}\" skipped=\"{}\">\n    <properties><property name=\"correction\" value=\"{}\"/>"
                     "</properties>\n{}  </testsuite>\n</testsuites>\n",
                     xml_text(c.candidate), xml_text(c.baseline), c.rows.size(), c.count(stats::Verdict::regressed),
                     c.count(stats::Verdict::inconclusive), stats::name_of(c.correction), cases);
}

}  // namespace sweep::report
