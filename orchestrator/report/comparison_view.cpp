#include "report/comparison_view.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "report/point_identity.h"
#include "report/points_view.h"
#include "report/rounding.h"
#include "spec/load_report.h"
#include "stats/multiple.h"
#include "telemetry/run_metrics.h"
#include "util/output_tail.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/sinks.h"
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

Gate CampaignComparison::gate() const {
  if (!missing.empty() || rows.empty()) return Gate::incomparable;
  if (count(stats::Verdict::regressed) > 0) return Gate::regressed;
  if (count(stats::Verdict::inconclusive) == rows.size()) return Gate::undecided;
  return Gate::passed;
}

std::string_view name_of(Gate g) {
  constexpr std::array<std::pair<Gate, std::string_view>, 4> kGates{{{Gate::incomparable, "could not compare"},
                                                                     {Gate::regressed, "regressed"},
                                                                     {Gate::undecided, "undecided"},
                                                                     {Gate::passed, "passed"}}};
  for (const auto& [gate, name] : kGates)
    if (gate == g) return name;
  return "?";
}

namespace {

/// Why the candidate has no value of `metric` at the point that matched (nullptr: none matched).
std::string missing_reason(const CampaignData& candidate, const PointResult* partner, const std::string& metric) {
  if (!partner) return "the point is absent from the candidate";
  if (partner->succeeded > 0)
    return fmt::format("its {} succeeded runs never produced \"{}\"", partner->succeeded, metric);
  if (partner->failed == 0)
    return partner->unfinished > 0 ? fmt::format("its {} runs have not finished", partner->unfinished) : "it has no runs";
  std::vector<std::string> reasons;
  for (const auto& r : candidate.runs) {
    std::string headline = split_reason(r.failure_reason).headline;  // without the output's tail
    if (r.point_id == partner->point->point_id && r.state == store::RunState::failed &&
        std::find(reasons.begin(), reasons.end(), headline) == reasons.end())
      reasons.push_back(std::move(headline));
  }
  const std::size_t shown = std::min<std::size_t>(reasons.size(), 2);
  std::string text = join(std::vector<std::string>(reasons.begin(), reasons.begin() + static_cast<std::ptrdiff_t>(shown)), "; ");
  if (reasons.size() > shown) text += fmt::format("; and {} other reasons", reasons.size() - shown);
  return fmt::format("its {} runs failed: {}", partner->failed, text);
}

/// Named metrics, or by default every metric but sweep's measurements of the runs (telemetry/run_metrics.h).
bool selected(const std::vector<std::string>& metrics, const std::string& name) {
  if (metrics.empty()) return !telemetry::is_run_metric(name);
  return std::find(metrics.begin(), metrics.end(), name) != metrics.end();
}

/// The points of the two sides lined up (point_identity.h), or Error(incomparable) naming what differs.
Alignment aligned(const CampaignData& baseline, const std::vector<PointResult>& base, const CampaignData& candidate,
                  const std::vector<PointResult>& cand, const PointMatching& matching) {
  Alignment a = align(base, cand);
  if (baseline.campaign.experiment != candidate.campaign.experiment)
    a.differences.insert(a.differences.begin(), fmt::format("the baseline is experiment `{}`, the candidate `{}`",
                                                            baseline.campaign.experiment, candidate.campaign.experiment));
  if (!a.differences.empty() && !matching.allow_different)
    throw Error(ErrorKind::incomparable,
                fmt::format("cannot compare {} with baseline {}: {}. --map OLD=NEW lines up a renamed axis; "
                            "--allow-different compares the points that line up anyway",
                            terminal_text(candidate.campaign.label), terminal_text(baseline.campaign.label),
                            terminal_text(join(a.differences, "; "))));
  return a;
}

}  // namespace

namespace {

/// The two sides' points by identity key (the first point of a key wins), and what is asked of them.
struct Sides {
  std::vector<PointResult> base, cand;
  PointIdentity identity;
  std::map<std::string, const PointResult*> base_by_key, cand_by_key;
  const std::vector<std::string>* metrics = nullptr;  // selected; empty = all
};

/// The thresholds that apply: the candidate experiment's entries first (the first entry of a metric
/// wins, threshold_at), then the site's; none when the user gave --threshold.
std::vector<spec::MetricThreshold> thresholds_for(const CampaignData& candidate, bool metric_thresholds,
                                                  const std::vector<spec::MetricThreshold>& site_thresholds) {
  std::vector<spec::MetricThreshold> thresholds;
  if (!metric_thresholds) return thresholds;
  thresholds = spec::thresholds_of_experiment(candidate.campaign.spec_text, candidate.campaign.spec_path);
  thresholds.insert(thresholds.end(), site_thresholds.begin(), site_thresholds.end());
  return thresholds;
}

void require_metrics(const Sides& s) {
  const std::vector<std::string> all_b = metric_names(s.base), all_c = metric_names(s.cand);
  for (const auto& m : *s.metrics)
    if (std::find(all_b.begin(), all_b.end(), m) == all_b.end() && std::find(all_c.begin(), all_c.end(), m) == all_c.end())
      throw Error(ErrorKind::usage, fmt::format("--metrics: neither campaign has a metric \"{}\"{}", m, did_you_mean(m, all_b)));
}

/// A row per candidate point x metric that its baseline partner has, p-values adjusted together.
/// Returns the keys of the points compared.
std::set<std::string> compare_rows(const Sides& s, const std::vector<spec::MetricThreshold>& thresholds,
                                   const stats::CompareOptions& options, CampaignComparison& out) {
  std::size_t most_rows = 0;
  for (const auto& c : s.cand) most_rows += c.metrics.size();
  out.rows.reserve(most_rows);  // rows are large (two summaries each): no regrowth
  std::vector<stats::Better> betters;
  betters.reserve(most_rows);
  std::set<std::string> seen;
  for (const auto& c : s.cand) {
    const std::string key = identity_key(*c.point, s.identity);
    const auto partner = s.base_by_key.find(key);
    if (partner == s.base_by_key.end()) {
      out.only_in_candidate.push_back(point_label(*c.point));
      continue;
    }
    if (!seen.insert(key).second) continue;  // a second candidate point of the same key (--allow-different)
    for (const auto& [name, cm] : c.metrics) {
      const auto bm = partner->second->metrics.find(name);
      if (!selected(*s.metrics, name) || bm == partner->second->metrics.end()) continue;
      stats::Better better = stats::Better::none;
      stats::parse_better(cm.better, better);
      stats::CompareOptions own = options;
      own.threshold = threshold_at(thresholds, name, *c.point, options.threshold);
      out.rows.push_back({point_label(*c.point), c.point->point_id, name, cm.unit, cm.better,
                          stats::compare(bm->second.values, cm.values, better, own)});
      betters.push_back(better);
    }
  }
  // Every point x metric is one family: its verdicts are judged again with adjusted p-values.
  std::vector<stats::Comparison> family;
  family.reserve(out.rows.size());
  for (auto& r : out.rows) family.push_back(std::move(r.result));
  stats::correct(family, betters, options);
  for (std::size_t i = 0; i < out.rows.size(); ++i) out.rows[i].result = std::move(family[i]);
  return seen;
}

/// Every baseline point x metric with succeeded runs that no candidate point x metric with succeeded
/// runs meets, with its reason; and the baseline points without a partner.
void find_missing(const Sides& s, const CampaignData& candidate, const std::set<std::string>& seen, CampaignComparison& out) {
  for (const auto& b : s.base) {
    const std::string key = identity_key(*b.point, s.identity);
    if (!seen.count(key)) out.only_in_baseline.push_back(point_label(*b.point));
    const auto partner = s.cand_by_key.find(key);
    const PointResult* c = partner == s.cand_by_key.end() ? nullptr : partner->second;
    for (const auto& [name, bm] : b.metrics)
      if (selected(*s.metrics, name) && !(c && c->metrics.contains(name)))
        out.missing.push_back({point_label(*b.point), name, missing_reason(candidate, c, name)});
  }
}

}  // namespace

CampaignComparison compare_campaigns(const CampaignData& baseline_data, const CampaignData& candidate,
                                     const std::vector<std::string>& metrics, const stats::CompareOptions& options,
                                     bool metric_thresholds, const std::vector<spec::MetricThreshold>& site_thresholds,
                                     const PointMatching& matching) {
  CampaignData renamed;
  const CampaignData* baseline = &baseline_data;
  if (!matching.map.empty()) {
    renamed = baseline_data;
    rename_params(renamed.points, matching.map);
    baseline = &renamed;
  }
  CampaignComparison out{baseline->campaign.label, candidate.campaign.label, options.correction, options.alpha, {}, {}, {}, {}, {}, {}, {}, {}, baseline->campaign.system, candidate.campaign.system};
  Sides s{point_results(*baseline), point_results(candidate), {}, {}, {}, &metrics};
  const Alignment a = aligned(*baseline, s.base, candidate, s.cand, matching);
  s.identity = a.identity;
  out.matched_by = a.identity.params;
  out.ignored = a.identity.constant;
  out.differences = a.differences;
  for (const auto& r : s.base) s.base_by_key.emplace(identity_key(*r.point, s.identity), &r);
  for (const auto& r : s.cand) s.cand_by_key.emplace(identity_key(*r.point, s.identity), &r);
  require_metrics(s);
  const auto seen = compare_rows(s, thresholds_for(candidate, metric_thresholds, site_thresholds), options, out);
  find_missing(s, candidate, seen, out);
  out.changed = provenance_changes(baseline->facts, candidate.facts);
  return out;
}

std::string verdict_counts(const CampaignComparison& c) {
  return fmt::format("{} missing, {} regressed, {} improved, {} unchanged, {} changed, {} inconclusive", c.missing.size(),
                     c.count(stats::Verdict::regressed), c.count(stats::Verdict::improved),
                     c.count(stats::Verdict::unchanged), c.count(stats::Verdict::changed),
                     c.count(stats::Verdict::inconclusive));
}

namespace {
/// A system as the text names it: its name, or what stands for none.
std::string system_name(const std::string& system) { return system.empty() ? "(no site name)" : terminal_text(system); }
}  // namespace

std::string comparison_text(const CampaignComparison& c) {
  const std::string p_header = c.correction == stats::Correction::none ? "p" : fmt::format("p ({})", stats::name_of(c.correction));
  std::vector<std::array<std::string, 7>> lines{{"point", "metric", "baseline", "candidate", fmt::format("change [{:g}% CI]", 100 * (1 - c.alpha)), p_header, "verdict"}};
  for (const auto& r : c.rows) {
    const auto& x = r.result;
    lines.push_back({terminal_text(r.point), terminal_text(r.metric + (r.unit.empty() ? "" : " (" + r.unit + ")")),
                     fmt::format("{} ({})", format_number(x.baseline.mean), x.baseline.n),
                     fmt::format("{} ({})", format_number(x.candidate.mean), x.candidate.n),
                     fmt::format("{} [{}, {}]", percent(x.relative), percent(x.relative_low), percent(x.relative_high)),
                     fmt::format("{:.3g}", x.p_adjusted), std::string(stats::name_of(x.verdict))});
  }
  std::array<std::size_t, 7> width{};
  for (const auto& l : lines)
    for (std::size_t i = 0; i < l.size(); ++i) width[i] = std::max(width[i], l[i].size());
  std::string out;
  // Names and reasons come from databases: shown as terminal text (util/sinks.h), one line each.
  if (c.baseline_system != c.candidate_system)  // campaigns of two systems meet: each one's is named
    out += fmt::format("system: baseline {} on {}, candidate {} on {}\n", terminal_text(c.baseline),
                       system_name(c.baseline_system), terminal_text(c.candidate), system_name(c.candidate_system));
  for (const auto& m : c.missing)
    out += fmt::format("missing: {} {}: {}\n", terminal_text(m.point), terminal_text(m.metric), terminal_text(m.reason));
  if (c.rows.empty()) out += fmt::format("nothing compared: {}\n", kNothingCompared);
  else
    for (const auto& l : lines) {
      std::string row;
      for (std::size_t i = 0; i < l.size(); ++i) row += fmt::format("{:<{}}  ", l[i], width[i]);
      out += row.substr(0, row.find_last_not_of(' ') + 1) + "\n";
    }
  for (const auto& r : c.rows)
    if (r.result.verdict == stats::Verdict::inconclusive || r.result.verdict == stats::Verdict::regressed)
      out += fmt::format("{} {}: {}: {}\n", terminal_text(r.point), terminal_text(r.metric), stats::name_of(r.result.verdict),
                         terminal_text(r.result.reason));
  for (const auto& p : c.only_in_baseline) out += fmt::format("only in {}: {}\n", terminal_text(c.baseline), terminal_text(p));
  for (const auto& p : c.only_in_candidate) out += fmt::format("only in {}: {}\n", terminal_text(c.candidate), terminal_text(p));
  for (const auto& d : c.differences) out += fmt::format("differs (--allow-different): {}\n", terminal_text(d));
  for (const auto& change : c.changed) out += "changed: " + terminal_text(change_text(change)) + "\n";
  if (!c.ignored.empty()) out += fmt::format("matched by {}; one-valued, not matched: {}\n",
                                             c.matched_by.empty() ? "nothing (one point each)" : terminal_text(join(c.matched_by, ", ")),
                                             terminal_text(join(c.ignored, ", ")));
  out += fmt::format("{} vs {}: {}: {} ({} comparisons, p-values corrected: {})\n", terminal_text(c.candidate), terminal_text(c.baseline),
                     name_of(c.gate()), verdict_counts(c), c.rows.size(), stats::name_of(c.correction));
  return out;
}

/// "changed": [{"fact", "keys", "baseline", "candidate", "text"}], each side's values an array of
/// objects, key to value (a key the run did not record left out).
std::string changed_json(const std::vector<ProvenanceChange>& changed) {
  const auto side = [](const ProvenanceChange& change, const std::vector<FactValue>& values) {
    std::string out;
    for (const auto& value : values) {
      std::string fields;
      for (std::size_t k = 0; k < change.keys.size(); ++k)
        if (!value[k].empty()) fields += fmt::format("{}{}: {}", fields.empty() ? "" : ", ", json_string(change.keys[k]), json_string(value[k]));
      out += fmt::format("{}{{{}}}", out.empty() ? "" : ", ", fields);
    }
    return "[" + out + "]";
  };
  std::string out;
  for (const auto& change : changed) {
    std::string keys;
    for (const auto& k : change.keys) keys += (keys.empty() ? "" : ", ") + json_string(k);
    out += fmt::format(R"({}{{"fact": {}, "keys": [{}], "baseline": {}, "candidate": {}, "text": {}}})", out.empty() ? "" : ", ",
                       json_string(change.label), keys, side(change, change.baseline), side(change, change.candidate),
                       json_string(change_text(change)));
  }
  return "[" + out + "]";
}

std::string comparison_json(const CampaignComparison& c) {
  const auto strings = [](const std::vector<std::string>& v) {
    std::string out;
    for (const auto& x : v) out += (out.empty() ? "" : ", ") + json_string(x);
    return "[" + out + "]";
  };
  std::string missing;
  for (const auto& m : c.missing)
    missing += fmt::format(R"({}{{"point": {}, "metric": {}, "verdict": "missing", "reason": {}}})", missing.empty() ? "" : ", ",
                           json_string(m.point), json_string(m.metric), json_string(m.reason));
  std::string out = fmt::format(R"({{"version": {}, "baseline": {}, "candidate": {}, "gate": "{}", "correction": "{}", )"
                                R"("matched_by": {}, "ignored": {}, "differences": {}, "changed": {}, "missing": [{}], )"
                                R"("baseline_system": {}, "candidate_system": {}, "rows": [)",
                                kComparisonJsonVersion, json_string(c.baseline), json_string(c.candidate), name_of(c.gate()),
                                stats::name_of(c.correction), strings(c.matched_by), strings(c.ignored),
                                strings(c.differences), changed_json(c.changed), missing, json_string(c.baseline_system),
                                json_string(c.candidate_system));
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

/// A <property name="changed"> per changed fact (CI systems show a suite's properties).
std::string changed_properties(const std::vector<ProvenanceChange>& changed) {
  std::string out;
  for (const auto& change : changed) out += fmt::format(R"(<property name="changed" value="{}"/>)", xml_text(change_text(change)));
  return out;
}

std::string comparison_junit(const CampaignComparison& c) {
  std::string cases;
  for (const auto& m : c.missing)
    cases += fmt::format(R"(    <testcase classname="{}" name="{}"><failure message="missing: {}"/></testcase>)"
                         "\n", xml_text(m.point), xml_text(m.metric), xml_text(m.reason));
  if (c.rows.empty() && c.missing.empty())
    cases += fmt::format(R"(    <testcase classname="comparison" name="nothing compared"><failure message="{}"/></testcase>)"
                         "\n", kNothingCompared);
  // Regressed rows first, after the missing ones: what failed opens the file.
  std::vector<const ComparisonRow*> order;
  for (const auto& r : c.rows) order.push_back(&r);
  std::stable_partition(order.begin(), order.end(), [](const ComparisonRow* r) { return r->result.verdict == stats::Verdict::regressed; });
  for (const auto* row : order) {
    const auto& r = *row;
    cases += fmt::format(R"(    <testcase classname="{}" name="{}">)", xml_text(r.point), xml_text(r.metric));
    if (r.result.verdict == stats::Verdict::regressed)
      cases += fmt::format(R"x(<failure message="regressed {} (p {:.3g}, adjusted {:.3g})">{}</failure>)x",
                           xml_text(percent(r.result.relative)), r.result.welch.p, r.result.p_adjusted, xml_text(r.result.reason));
    else if (r.result.verdict == stats::Verdict::inconclusive)
      cases += fmt::format(R"(<skipped message="inconclusive: {}"/>)", xml_text(r.result.reason));
    cases += "</testcase>\n";
  }
  return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"{} vs {}\" tests=\"{}\" "
                     "failures=\"{}\" skipped=\"{}\">\n    <properties><property name=\"gate\" value=\"{}\"/><property "
                     "name=\"baseline\" value=\"{}\"/><property name=\"correction\" value=\"{}\"/>{}"
                     "</properties>\n{}  </testsuite>\n</testsuites>\n",
                     xml_text(c.candidate), xml_text(c.baseline), c.rows.size() + c.missing.size() + (c.rows.empty() && c.missing.empty()),
                     c.count(stats::Verdict::regressed) + c.missing.size() + (c.rows.empty() && c.missing.empty()),
                     c.count(stats::Verdict::inconclusive), name_of(c.gate()), xml_text(c.baseline),
                     stats::name_of(c.correction), changed_properties(c.changed), cases);
}

}  // namespace sweep::report
