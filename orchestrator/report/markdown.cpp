#include "report/markdown.h"

#include <fmt/core.h>

#include <algorithm>

#include "report/efficiency_render.h"
#include "report/forecast_actual.h"
#include "report/failure_groups.h"
#include "report/hardware.h"
#include "util/sinks.h"

namespace sweep::report {
namespace {

/// A fence of backticks longer than any run of them in `text`, so `text` cannot close its code block.
std::string fence_for(const std::string& text) {
  std::size_t longest = 0, run = 0;
  for (const char c : text) longest = std::max(longest, run = c == '`' ? run + 1 : 0);
  return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

/// The failed runs grouped by cause (report/failure_groups.h): each cause once, with the first run's
/// details and the last lines it printed in a code block (control characters made visible).
std::string failure_causes(const CampaignData& data) {
  std::string out = "### Why they failed\n\n";
  for (const auto& g : group_failures(data.runs)) {
    out += fmt::format("- {} run{}: {} (first: point {}, {})\n", g.runs, g.runs == 1 ? "" : "s", markdown_cell(g.cause.headline),
                       markdown_cell(g.first->point_id), markdown_cell(g.first->run_dir));
    std::string evidence = g.cause.details;
    if (!g.cause.tail.empty())
      evidence += fmt::format("{}--- last lines of {} ---\n{}", evidence.empty() ? "" : "\n", g.cause.stream, g.cause.tail);
    if (evidence.empty()) continue;
    evidence = terminal_text(evidence, true);
    const std::string fence = fence_for(evidence);
    out += fmt::format("\n  {}text\n", fence);
    std::size_t pos = 0;
    while (pos <= evidence.size()) {
      const auto nl = evidence.find('\n', pos);
      out += "  " + evidence.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos) + "\n";
      if (nl == std::string::npos) break;
      pos = nl + 1;
    }
    out += fmt::format("  {}\n\n", fence);
  }
  return out + "\n";
}

void append_row(std::string& out, const std::vector<std::string>& cells) {
  out += "|";
  for (const auto& c : cells) out += " " + markdown_cell(c) + " |";
  out += "\n";
}

std::size_t count_state(const CampaignData& data, store::RunState state) {
  std::size_t n = 0;
  for (const auto& r : data.runs) n += r.state == state;
  return n;
}

}  // namespace

std::string markdown_table(const Table& t) {
  std::string out;
  if (!t.title.empty())
    out += t.unit.empty() ? fmt::format("### {}\n\n", markdown_cell(t.title))
                          : fmt::format("### {} ({})\n\n", markdown_cell(t.title), markdown_cell(t.unit));
  if (t.spread) out += fmt::format("Cells: {} (n).\n\n", spread_phrase(*t.spread));
  std::vector<std::string> header = t.row_names;
  header.insert(header.end(), t.columns.begin(), t.columns.end());
  append_row(out, header);
  out += "|";
  for (std::size_t i = 0; i < header.size(); ++i) out += i < t.row_names.size() ? " --- |" : " ---: |";
  out += "\n";
  for (std::size_t r = 0; r < t.row_values.size(); ++r) {
    std::vector<std::string> cells = t.row_values[r];
    for (const auto& cell : t.cells[r]) {
      // n after every value: a declared table's too, where format_cell leaves it out.
      const std::string n = cell_n(cell);
      cells.push_back(format_cell(cell, t.spread.value_or(kDefaultSpread), !t.spread) + (t.spread && !n.empty() ? " (" + n + ")" : ""));
    }
    append_row(out, cells);
  }
  // After a blank line: a line right below a table would be read as one of its rows.
  if (has_zero_spread(t, t.spread.value_or(kDefaultSpread))) out += fmt::format("\n{}\n", kZeroSpreadNote);
  return out;
}

std::string markdown_report(const CampaignData& data, const std::vector<Table>& tables, const std::string& lead) {
  const auto& c = data.campaign;
  std::string out = fmt::format("# Campaign {}\n\n", c.label) + lead;
  // Every text here comes from the database, which may be someone else's: each is a Markdown cell.
  out += fmt::format("Experiment {} ({}), started {}{}, on {} by {}; sweep {}{}.\n\n", markdown_cell(c.experiment),
                     markdown_cell(c.spec_path), markdown_cell(c.started_at),
                     c.ended_at.empty() ? " (unfinished)" : ", ended " + markdown_cell(c.ended_at), markdown_cell(c.host),
                     markdown_cell(c.user), markdown_cell(c.tool_version), c.git_commit.empty() ? "" : fmt::format(", commit {}{}", markdown_cell(c.git_commit.substr(0, 12)),
                                                                            c.git_dirty.value_or(false) ? " (dirty)" : ""));
  if (!c.system.empty() || !c.origin_database_id.empty())  // docs/forecasts.md, "Systems and bundles"
    out += fmt::format("System: {}{}.\n\n", c.system.empty() ? "(no site name)" : markdown_cell(c.system),
                       c.origin_database_id.empty() ? ""
                                                    : fmt::format(" (imported: campaign {} of database {})",
                                                                  markdown_cell(c.origin_label), c.origin_database_id));
  std::string hardware;
  for (const auto& f : hardware_facts(data.hardware, started_runs(data)))
    hardware += (hardware.empty() ? "" : "; ") + markdown_cell(f.label + " " + f.text);
  out += "Hardware: " + hardware + ".\n\n";
  out += fmt::format("Runs: {} planned, {} succeeded, {} failed. Unless a table says otherwise, cells show the {} "
                     "(n) over succeeded runs.\n\n",
                     data.runs.size(), count_state(data, store::RunState::succeeded),
                     count_state(data, store::RunState::failed), spread_phrase(kDefaultSpread));
  for (const auto& t : tables) out += markdown_table(t) + "\n";
  if (!data.requests.empty() || !data.usage.empty())
    out += efficiency_markdown(efficiency(data));  // report/efficiency.h
  out += forecast_actual_markdown(forecast_actual(data));  // report/forecast_actual.h
  if (count_state(data, store::RunState::failed) == 0) return out;
  out += "## Failed runs\n\n| point | repetition | attempt | class | reason | run directory |\n| --- | ---: | ---: | --- | --- | --- |\n";
  for (const auto& r : data.runs)
    if (r.state == store::RunState::failed)
      append_row(out, {r.point_id, std::to_string(r.repetition), std::to_string(r.attempt), r.failure_class,
                       split_reason(r.failure_reason).headline, r.run_dir});
  return out + "\n" + failure_causes(data);  // a blank line ends the table: what follows (the history) is not read as its rows
}

}  // namespace sweep::report
