#include "report/references.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "report/points_view.h"
#include "report/rounding.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/strings.h"

namespace sweep::report {
namespace {

bool applies(const spec::Reference& r, const store::PointRecord& p, const std::string& system) {
  if (r.system != "*" && r.system != system) return false;
  if (!r.where) return true;
  const PointValues at = point_values(p);
  if (r.general)
    for (const std::string& name : r.where->names())
      if (std::find(at.names.begin(), at.names.end(), name) == at.names.end()) return false;
  spec::Expr e = *r.where;
  e.bind(at.names);
  const Value v = e.eval(at.values);
  if (!v.is_bool())
    fail_at(r.where->where(), fmt::format("the reference's \"where\" must be true or false, got {} at point {}", v.text(),
                                          point_label(p)));
  return v.as_bool();
}

/// The reference of `metric` at `p`: the first naming the system, else the first for any system.
const spec::Reference* chosen(const std::vector<const spec::Reference*>& matching, const std::string& metric) {
  const spec::Reference* any = nullptr;
  for (const spec::Reference* r : matching) {
    if (r->metric != metric) continue;
    if (r->system != "*") return r;
    if (!any) any = r;
  }
  return any;
}

ReferenceRow judge(const PointResult& point, const spec::Reference& r) {
  ReferenceRow row{point_label(*point.point), r.metric, r.unit, r.value, r.lower, r.upper, std::nullopt, 0, 0, false, ""};
  const auto m = point.metrics.find(r.metric);
  if (m == point.metrics.end() || m->second.summary.n == 0) {
    row.reason = "not measured: no succeeded run reported it";
    return row;
  }
  if (row.unit.empty()) row.unit = m->second.unit;
  if (!r.unit.empty() && !m->second.unit.empty() && r.unit != m->second.unit) {
    row.reason = fmt::format("the reference is in {} but the metric in {}", r.unit, m->second.unit);
    return row;
  }
  row.measured = m->second.summary.mean;
  row.n = m->second.summary.n;
  row.deviation = (*row.measured - r.value) / std::fabs(r.value);
  if (r.lower && row.deviation < *r.lower)
    row.reason = fmt::format("{:+.2f}% is below the lower bound {:+.2f}%", 100 * row.deviation, 100 * *r.lower);
  else if (r.upper && row.deviation > *r.upper)
    row.reason = fmt::format("{:+.2f}% is above the upper bound {:+.2f}%", 100 * row.deviation, 100 * *r.upper);
  row.passed = row.reason.empty();
  return row;
}

std::string bound(const std::optional<double>& b, const char* open) {
  return b ? fmt::format("{:+.1f}%", 100 * *b) : open;
}

std::string measured_text(const ReferenceRow& r) {
  return r.measured ? fmt::format("{} ({})", format_number(*r.measured), r.n) : "-";
}

}  // namespace

std::size_t ReferenceCheck::failed() const {
  return static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const ReferenceRow& r) { return !r.passed; }));
}

ReferenceCheck check_references(const CampaignData& data, const std::vector<spec::Reference>& references,
                                const std::string& system) {
  ReferenceCheck out{data.campaign.label, system, {}, 0};
  for (const auto& run : data.runs)
    if (run.state == store::RunState::pending || run.state == store::RunState::running) ++out.unfinished;
  const std::vector<PointResult> points = point_results(data);
  std::set<std::string> reported;  // metrics of any point: a general entry for another is left out
  for (const PointResult& point : points)
    for (const auto& [name, m] : point.metrics) reported.insert(name);
  for (const PointResult& point : points) {
    std::vector<const spec::Reference*> matching;
    std::vector<std::string> metrics;  // in the references' order, each once
    for (const spec::Reference& r : references)
      if ((!r.general || reported.count(r.metric)) && applies(r, *point.point, system)) {
        matching.push_back(&r);
        if (std::find(metrics.begin(), metrics.end(), r.metric) == metrics.end()) metrics.push_back(r.metric);
      }
    for (const std::string& metric : metrics) out.rows.push_back(judge(point, *chosen(matching, metric)));
  }
  if (out.rows.empty()) {
    std::set<std::string> systems;
    for (const auto& r : references) systems.insert(r.system);
    throw Error(ErrorKind::incomparable,
                references.empty() ? std::string("no references: give them in the experiment's or the site file's "
                                                 "\"references\" (docs/references.md)")
                                   : fmt::format("no references for system \"{}\" at any point of {} (systems named: {})",
                                                 system, data.campaign.label,
                                                 join(std::vector<std::string>(systems.begin(), systems.end()), ", ")));
  }
  return out;
}

std::string references_text(const ReferenceCheck& c) {
  std::vector<std::vector<std::string>> cells{{"point", "metric", "reference", "bounds", "measured (n)", "deviation", "verdict"}};
  for (const auto& r : c.rows)
    cells.push_back({r.point, r.metric, format_number(r.reference) + (r.unit.empty() ? "" : " " + r.unit),
                     bound(r.lower, "-inf") + " .. " + bound(r.upper, "+inf"), measured_text(r),
                     r.measured ? fmt::format("{:+.2f}%", 100 * r.deviation) : "-", r.passed ? "pass" : "FAIL"});
  std::vector<std::size_t> width(cells[0].size(), 0);
  for (const auto& row : cells)
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  std::string out;
  for (const auto& row : cells) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) line += row[i] + std::string(i + 1 < row.size() ? width[i] - row[i].size() + 2 : 0, ' ');
    out += line + "\n";
  }
  for (const auto& r : c.rows)
    if (!r.passed) out += fmt::format("{} {}: {}\n", r.point, r.metric, r.reason);
  if (c.unfinished > 0)
    out += fmt::format("{} runs of {} are unfinished: the means are partial\n", c.unfinished, c.campaign);
  return out + fmt::format("{} on system \"{}\": {} of {} references met, {} failed\n", c.campaign, c.system,
                           c.rows.size() - c.failed(), c.rows.size(), c.failed());
}

std::string references_json(const ReferenceCheck& c) {
  const auto opt = [](const std::optional<double>& x) { return x ? json_number(*x) : std::string("null"); };
  std::string rows;
  for (const auto& r : c.rows)
    rows += fmt::format(R"({}{{"point": {}, "metric": {}, "unit": {}, "reference": {}, "lower": {}, "upper": {}, )"
                        R"("measured": {}, "n": {}, "deviation": {}, "passed": {}, "reason": {}}})",
                        rows.empty() ? "" : ", ", json_string(r.point), json_string(r.metric), json_string(r.unit),
                        json_number(r.reference), opt(r.lower), opt(r.upper), opt(r.measured), r.n,
                        r.measured ? json_number(r.deviation) : "null", r.passed ? "true" : "false", json_string(r.reason));
  return fmt::format(R"({{"version": {}, "campaign": {}, "system": {}, "failed": {}, "unfinished_runs": {}, "rows": [{}]}})"
                     "\n",
                     kReferenceJsonVersion, json_string(c.campaign), json_string(c.system), c.failed(), c.unfinished, rows);
}

std::string references_junit(const ReferenceCheck& c) {
  std::string cases;
  for (const auto& r : c.rows) {
    cases += fmt::format(R"(    <testcase classname="{}" name="{}">)", xml_text(r.point), xml_text(r.metric));
    if (!r.passed) cases += fmt::format(R"(<failure message="{}"/>)", xml_text(r.reason));
    cases += "</testcase>\n";
  }
  return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"{} on {}\" tests=\"{}\" "
                     "failures=\"{}\">\n{}  </testsuite>\n</testsuites>\n",
                     xml_text(c.campaign), xml_text(c.system), c.rows.size(), c.failed(), cases);
}

}  // namespace sweep::report
