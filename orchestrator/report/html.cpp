#include "report/html.h"

#include <fmt/core.h>

#include "report/efficiency_render.h"
#include "report/forecast_actual.h"
#include "report/hardware.h"
#include "util/output_tail.h"
#include "util/sinks.h"
#include "util/escape.h"

namespace sweep::report {
namespace {

constexpr const char* kStyle = R"(body{font-family:system-ui,sans-serif;margin:2em auto;max-width:72em;color:#222;padding:0 1em}
table{border-collapse:collapse;margin:1em 0}th,td{padding:.3em .7em;border-bottom:1px solid #ddd;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}td .n{color:#777;font-size:.85em}th{border-bottom:2px solid #444}
caption{caption-side:top;text-align:left;font-weight:600;padding:.3em 0}figure{margin:1.5em 0}
figure img{display:block;width:100%;height:auto;box-sizing:border-box;border:1px solid #eee}.error{color:#a00}pre{background:#f6f6f6;padding:1em;overflow:auto}
.prov th{font-weight:600;border-bottom:1px solid #ddd}#verdict{padding:.2em 1em;border-left:6px solid #2a2}
#verdict.failed{border-left-color:#c00;background:#fff4f4})";

std::string esc(const std::string& s) { return xml_text(s); }

std::string provenance(const CampaignData& data) {
  const auto& c = data.campaign;
  const std::vector<std::pair<const char*, std::string>> rows{
      {"experiment", c.experiment},
      {"experiment file", c.spec_path},
      {"experiment sha256", c.spec_hash},
      {"overrides", c.overrides},
      {"executor", c.executor},
      {"repetitions", std::to_string(c.repetitions)},
      {"started", c.started_at},
      {"ended", c.ended_at.empty() ? "(unfinished)" : c.ended_at},
      {"system", c.system.empty() ? "(no site name)" : c.system},
      {"host", c.host},
      {"user", c.user},
      {"sweep version", c.tool_version},
      {"git commit", c.git_commit.empty() ? "(not in git)" : c.git_commit + (c.git_dirty.value_or(false) ? " (dirty)" : "")},
      {"run directories", c.run_root + (c.origin_database_id.empty() ? "" : " (on the system it ran on)")},
      {"imported from", c.origin_database_id.empty() ? "(not imported)" : c.origin_label + " of database " + c.origin_database_id}};
  std::string out = "<h2>Provenance</h2>\n<table class=\"prov\">\n";
  for (const auto& [k, v] : rows) out += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", k, esc(v));
  for (const auto& f : hardware_facts(data.hardware, started_runs(data)))
    out += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", esc(f.label), esc(f.text));
  return out + "</table>\n";
}

std::string run_counts(const CampaignData& data) {
  std::size_t counts[4] = {0, 0, 0, 0};
  for (const auto& r : data.runs) ++counts[static_cast<int>(r.state)];
  return fmt::format("<p id=\"runs\">Runs: {} planned, {} succeeded, {} failed, {} pending, {} running.</p>\n", data.runs.size(),
                     counts[static_cast<int>(store::RunState::succeeded)], counts[static_cast<int>(store::RunState::failed)],
                     counts[static_cast<int>(store::RunState::pending)], counts[static_cast<int>(store::RunState::running)]);
}

// " <span class="n">n=5</span>": how many runs a cell's statistic is over, muted after its value; "" for an empty cell.
std::string n_span(const Cell& cell) {
  const std::string n = cell_n(cell);
  return n.empty() ? "" : " <span class=\"n\">n=" + n + "</span>";
}

std::string html_table(const Table& t) {
  const Spread spread = t.spread.value_or(kDefaultSpread);
  std::string caption = !t.title.empty() ? t.title : !t.name.empty() ? t.name : "All metrics";
  if (!t.unit.empty()) caption += " (" + t.unit + ")";
  std::string cells = spread_phrase(spread);
  if (has_zero_spread(t, spread)) cells += std::string(". ") + kZeroSpreadNote;
  std::string out = fmt::format("<table class=\"results\"><caption>{} <small>— {}</small></caption>\n<thead><tr>", esc(caption),
                                esc(cells));
  for (const auto& n : t.row_names) out += "<th>" + esc(n) + "</th>";
  for (const auto& c : t.columns) out += "<th>" + esc(c) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (std::size_t r = 0; r < t.row_values.size(); ++r) {
    out += "<tr>";
    for (const auto& v : t.row_values[r]) out += "<td>" + esc(v) + "</td>";
    for (const auto& cell : t.cells[r]) out += "<td class=\"num\">" + esc(format_cell(cell, spread, false)) + n_span(cell) + "</td>";
    out += "</tr>\n";
  }
  return out + "</tbody></table>\n";
}

std::string html_figure(const HtmlFigure& f) {
  std::string out = fmt::format("<figure id=\"fig-{}\">\n", esc(f.name));
  if (f.svg.empty()) out += fmt::format("<p class=\"error\">Figure {} was not drawn: {}</p>\n", esc(f.name), esc(f.error));
  else out += fmt::format("<img alt=\"{}\" src=\"data:image/svg+xml;base64,{}\">\n", esc(f.title), base64(f.svg));
  out += fmt::format("<figcaption>{} — <a href=\"figures/{}.pdf\">PDF</a> · <a href=\"figures/{}.gp\">gnuplot script</a> · "
                     "<a href=\"figures/{}.dat\">data</a></figcaption>\n</figure>\n",
                     esc(f.title), esc(f.file), esc(f.file), esc(f.file));
  return out;
}

/// A failure reason as a table cell: its headline, and its details and output tail (util/output_tail.h)
/// in a collapsed <details> block, shown preformatted.
std::string reason_cell(const std::string& reason) {
  const ReasonParts parts = split_reason(reason);
  std::string evidence = parts.details;
  if (!parts.tail.empty())
    evidence += (evidence.empty() ? "" : "\n") + fmt::format("--- last lines of {} ---\n{}", parts.stream, parts.tail);
  if (evidence.empty()) return esc(parts.headline);
  return fmt::format("{}<details><summary>{}</summary><pre>{}</pre></details>", esc(parts.headline),
                     parts.tail.empty() ? "details" : "last lines of " + esc(parts.stream), esc(terminal_text(evidence, true)));
}

std::string failed_runs(const CampaignData& data) {
  std::string rows;
  for (const auto& r : data.runs)
    if (r.state == store::RunState::failed)
      rows += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                          esc(r.point_id), r.repetition, r.attempt, esc(r.failure_class), reason_cell(r.failure_reason), esc(r.run_dir));
  if (rows.empty()) return "<h2>Failed runs</h2>\n<p>None.</p>\n";
  return "<h2>Failed runs</h2>\n<table id=\"failed\"><thead><tr><th>point</th><th>repetition</th><th>attempt</th><th>class</th>"
         "<th>reason</th><th>run directory</th></tr></thead>\n<tbody>\n" +
         rows + "</tbody></table>\n";
}

}  // namespace

std::string html_report(const CampaignData& data, const std::vector<Table>& tables, const std::vector<HtmlFigure>& figures,
                        const std::string& sections, const std::string& lead) {
  const std::string label = esc(data.campaign.label);
  std::string out = fmt::format("<!DOCTYPE html>\n<!-- sweep HTML report (format 1) -->\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\">\n"
                                "<title>sweep report: {}</title>\n<style>{}</style></head>\n<body>\n<h1>Campaign {}</h1>\n",
                                label, kStyle, label);
  out += lead;
  out += run_counts(data);
  out += "<h2>Tables</h2>\n";
  for (const auto& t : tables) out += html_table(t);
  if (!figures.empty()) out += "<h2>Figures</h2>\n";
  for (const auto& f : figures) out += html_figure(f);
  out += sections;
  if (!data.requests.empty() || !data.usage.empty()) out += efficiency_html(efficiency(data));  // report/efficiency.h
  out += forecast_actual_html(forecast_actual(data));  // report/forecast_actual.h
  out += failed_runs(data);
  out += provenance(data);
  out += "<details><summary>Experiment as run</summary>\n<pre>" + esc(data.campaign.spec_text) + "</pre></details>\n";
  return out + "</body></html>\n";
}

}  // namespace sweep::report
