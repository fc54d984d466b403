#include "report/gate_verdict.h"

#include <fmt/core.h>

#include "util/escape.h"
#include "util/sinks.h"

namespace sweep::report {
namespace {

std::string against(const GateVerdict& v) {
  if (v.baseline.empty()) return "";
  return fmt::format("against {} (baseline \"{}\", pinned {})", v.baseline_campaign, v.baseline, v.baseline_date);
}

}  // namespace

std::vector<std::string> attention_rows(const CampaignComparison& c) {
  std::vector<std::string> out;
  for (const auto& m : c.missing) out.push_back(fmt::format("{} {}: missing: {}", m.point, m.metric, m.reason));
  for (stats::Verdict v : {stats::Verdict::regressed, stats::Verdict::inconclusive})
    for (const auto& r : c.rows)
      if (r.result.verdict == v)
        out.push_back(fmt::format("{} {}: {} {:+.1f}%: {}", r.point, r.metric, stats::name_of(v), 100 * r.result.relative,
                                  r.result.reason));
  for (const auto& change : c.changed) out.push_back("changed: " + change_text(change));
  return out;
}

std::string verdict_markdown(const GateVerdict& v) {
  std::string out = fmt::format("## Verdict: {}\n\n", v.outcome);
  const std::string where = against(v);
  if (!where.empty() || !v.detail.empty())
    out += fmt::format("{}{}{}.\n\n", markdown_cell(where), !where.empty() && !v.detail.empty() ? ": " : "",
                       markdown_cell(v.detail));
  for (const auto& r : v.rows) out += "- " + markdown_cell(r) + "\n";
  return out + (v.rows.empty() ? "" : "\n");
}

std::string verdict_html(const GateVerdict& v) {
  std::string out = fmt::format("<section id=\"verdict\" class=\"{}\"><h2>Verdict: {}</h2>\n", v.failed ? "failed" : "ok",
                                xml_text(v.outcome));
  const std::string where = against(v);
  if (!where.empty() || !v.detail.empty())
    out += fmt::format("<p>{}{}{}</p>\n", xml_text(where), !where.empty() && !v.detail.empty() ? ": " : "", xml_text(v.detail));
  if (!v.rows.empty()) {
    out += "<ul>\n";
    for (const auto& r : v.rows) out += "<li>" + xml_text(r) + "</li>\n";
    out += "</ul>\n";
  }
  return out + "</section>\n";
}

std::string verdict_json(const GateVerdict& v) {
  std::string rows;
  for (const auto& r : v.rows) rows += (rows.empty() ? "" : ", ") + json_string(r);
  return fmt::format(R"({{"outcome": {}, "failed": {}, "baseline": {}, "baseline_campaign": {}, "baseline_date": {}, )"
                     R"("detail": {}, "rows": [{}]}})",
                     json_string(v.outcome), v.failed ? "true" : "false", json_string(v.baseline),
                     json_string(v.baseline_campaign), json_string(v.baseline_date), json_string(v.detail), rows);
}

}  // namespace sweep::report
