#include "report/efficiency_render.h"

#include <fmt/core.h>

#include <array>

#include "report/campaign_json.h"
#include "util/escape.h"
#include "util/sinks.h"

namespace sweep::report {

namespace {

/// One compared resource of a point: its name, unit and the figures.
struct Row {
  const char* name;
  const char* unit;
  const Used& used;
  const Requested& requested;
};

std::array<Row, 4> rows(const PointEfficiency& e) {
  return {{{"time", "s", e.time_s, e.time},
           {"memory", "MiB", e.mem_mib, e.mem},
           {"cpus", "cores", e.cores, e.cpus},
           {"gpus", "% GPU utilisation", e.gpu_util, e.gpus}}};
}

std::string used_text(const Row& r) {
  if (!r.used.mean) return "not measured";
  return fmt::format("mean {:.3g}, max {:.3g} {} ({} {})", *r.used.mean, *r.used.max, r.unit, r.used.from,
                     r.used.runs == 1 ? "of the one run" : fmt::format("over {} runs", r.used.runs));
}

/// The request, and the share of it the largest use took (GPUs are compared by utilisation, not share).
std::string requested_text(const Row& r) {
  if (!r.requested.value) return "not requested";
  std::string out = fmt::format("{} ({})", r.requested.text, r.requested.from);
  if (r.used.max && std::string_view(r.name) != "gpus" && *r.requested.value > 0)
    out += fmt::format(", max used {:.0f}% of it", 100 * *r.used.max / *r.requested.value);
  return out;
}

std::string used_json(const Used& u) {
  if (!u.mean) return "null";
  return fmt::format(R"({{"mean": {}, "max": {}, "p95": {}, "runs": {}, "from": {}}})", json_number(*u.mean),
                     json_number(*u.max), json_number(*u.p95), u.runs, json_string(u.from));
}

std::string requested_json(const Requested& r) {
  if (!r.value) return "null";
  return fmt::format(R"({{"value": {}, "text": {}, "from": {}}})", json_number(*r.value), json_string(r.text),
                     json_string(r.from));
}

std::string suggestion_text(const PointEfficiency& e) {
  if (e.suggest_time.empty() && e.suggest_mem.empty()) return "none (nothing measured)";
  std::string out;
  if (!e.suggest_time.empty()) out += fmt::format("time: \"{}\"", e.suggest_time);
  if (!e.suggest_mem.empty()) out += fmt::format("{}mem: {}", out.empty() ? "" : ", ", e.suggest_mem);
  return out + fmt::format(" ({} + {:.0f}%)", e.basis, kSuggestionMargin * 100);
}

std::string runs_text(const PointEfficiency& e) {
  return fmt::format("{} succeeded{}{}", e.succeeded, e.timed_out ? fmt::format(", {} timed out", e.timed_out) : "",
                     e.out_of_memory ? fmt::format(", {} out of memory", e.out_of_memory) : "");
}

}  // namespace

std::string efficiency_text(const std::vector<PointEfficiency>& points) {
  std::string out = "efficiency (used against requested; suggestions for the next campaign):\n";
  for (const auto& e : points) {
    out += fmt::format("point {} ({}): {}\n", e.point_id, e.label, runs_text(e));
    for (const Row& r : rows(e))
      out += fmt::format("  {:<7} used {}; requested {}\n", r.name, used_text(r), requested_text(r));
    out += fmt::format("  suggested {}\n", suggestion_text(e));
    for (const auto& line : e.escalate) out += "    " + line + "\n";
  }
  return out;
}

std::string efficiency_points_json(const std::vector<PointEfficiency>& points) {
  std::string list;
  for (const auto& e : points) {
    std::string resources;
    for (const Row& r : rows(e))
      resources += fmt::format(R"(, {}: {{"used": {}, "requested": {}, "unit": {}}})", json_string(r.name),
                               used_json(r.used), requested_json(r.requested), json_string(r.unit));
    std::string escalate;
    for (const auto& line : e.escalate) escalate += (escalate.empty() ? "" : ", ") + json_string(line);
    list += fmt::format(
        R"({}{{"point": {}, "label": {}, "succeeded": {}, "timed_out": {}, "out_of_memory": {}{}, "suggested": {{"time": {}, "mem": {}, "basis": {}, "escalate": [{}]}}}})",
        list.empty() ? "" : ", ", json_string(e.point_id), json_string(e.label), e.succeeded, e.timed_out,
        e.out_of_memory, resources, json_string(e.suggest_time), json_string(e.suggest_mem), json_string(e.basis),
        escalate);
  }
  return "[" + list + "]";
}

std::string efficiency_json(const std::string& campaign, const std::vector<PointEfficiency>& points) {
  return fmt::format(R"({{"version": {}, "campaign": {}, "margin": {}, "points": {}}})", kCampaignJsonVersion,
                     json_string(campaign), json_number(kSuggestionMargin), efficiency_points_json(points)) +
         "\n";
}

std::string efficiency_markdown(const std::vector<PointEfficiency>& points) {
  std::string out =
      "## Efficiency\n\nUsed against requested per point (docs/telemetry.md#efficiency).\n\n"
      "| point | runs | time | memory | CPUs | GPUs | suggested |\n| --- | --- | --- | --- | --- | --- | --- |\n";
  std::string escalate;
  for (const auto& e : points) {
    out += fmt::format("| {} | {} |", markdown_cell(e.label), markdown_cell(runs_text(e)));
    for (const Row& r : rows(e))
      out += fmt::format(" {}; requested {} |", markdown_cell(used_text(r)), markdown_cell(requested_text(r)));
    out += fmt::format(" {} |\n", markdown_cell(suggestion_text(e)));
    if (!e.escalate.empty()) {
      escalate += fmt::format("\nStarting values for `retries:` (and `escalate:`, on Slurm) at {}:\n\n```yaml\n", markdown_cell(e.label));
      for (const auto& line : e.escalate) escalate += line + "\n";
      escalate += "```\n";
    }
  }
  return out + escalate + "\n";
}

std::string efficiency_html(const std::vector<PointEfficiency>& points) {
  std::string out =
      "<h2>Efficiency</h2>\n<table id=\"efficiency\"><thead><tr><th>point</th><th>runs</th><th>time</th><th>memory</th>"
      "<th>CPUs</th><th>GPUs</th><th>suggested</th></tr></thead>\n<tbody>\n";
  for (const auto& e : points) {
    out += fmt::format("<tr><td>{}</td><td>{}</td>", xml_text(e.label), xml_text(runs_text(e)));
    for (const Row& r : rows(e))
      out += fmt::format("<td>{}; requested {}</td>", xml_text(used_text(r)), xml_text(requested_text(r)));
    std::string esc;
    for (const auto& line : e.escalate) esc += xml_text(line) + "\n";
    out +=
        fmt::format("<td>{}{}</td></tr>\n", xml_text(suggestion_text(e)), esc.empty() ? "" : "<pre>" + esc + "</pre>");
  }
  return out + "</tbody></table>\n";
}

}  // namespace sweep::report
