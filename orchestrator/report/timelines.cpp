#include "report/timelines.h"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <set>

#include "report/points_view.h"
#include "report/run_telemetry.h"
#include "report/timeline_svg.h"
#include "store/store.h"
#include "util/escape.h"
#include "util/sinks.h"
#include "util/strings.h"

namespace sweep::report {
namespace {

std::string caption(const PointTimeline& p) {
  return fmt::format("{}: run {} (repetition {}), the point's first succeeded run with telemetry", p.point, p.run_id,
                     p.repetition);
}

std::string left_out(const Timelines& t) {
  if (t.points_left_out == 0) return "";
  return fmt::format("The timelines of {} more points are left out (a report draws at most {}).", t.points_left_out, kMaxTimelines);
}

void append_strings(std::string& out, const std::vector<std::string>& texts) {
  out += "[";
  for (std::size_t i = 0; i < texts.size(); ++i) out += (i ? ", " : "") + json_string(texts[i]);
  out += "]";
}

std::string series_left_out(const Timeline& t) {
  return t.series_left_out ? fmt::format(" ({} series past the first {} are not drawn)", t.series_left_out, kMaxSeries) : "";
}

}  // namespace

Timelines load_timelines(const store::Store& db, const CampaignData& data) {
  std::map<std::int64_t, std::string> files;
  for (const auto& v : db.latest_provenance(data.campaign.id, {std::string(kTelemetryFilesKey)}, store::RunState::succeeded))
    files[v.run_id] = v.value;
  std::map<std::string, const store::PointRecord*> points;
  for (const auto& p : data.points) points[p.point_id] = &p;
  Timelines out;
  std::set<std::string> done;
  TelemetryBudget budget;
  for (const auto& run : data.runs) {  // in run order: the first succeeded run of each point
    const auto f = files.find(run.id);
    if (run.state != store::RunState::succeeded || f == files.end() || !done.insert(run.point_id).second) continue;
    if (out.points.size() == kMaxTimelines) {
      ++out.points_left_out;
      continue;
    }
    const auto p = points.find(run.point_id);
    PointTimeline t{p == points.end() ? run.point_id : point_label(*p->second), run.point_id, run.id, run.repetition, {}, {}, {}};
    for (auto& name : split(f->second, ' '))
      if (!name.empty()) t.files.push_back(std::move(name));
    RunTelemetry read = read_run_telemetry(run.run_dir, f->second, budget);
    if (!read.logs.empty()) t.timeline = build_timeline(std::move(read.logs));
    t.problems = std::move(read.problems);
    out.points.push_back(std::move(t));
  }
  const auto ordinal = [&](const PointTimeline& t) { return points.contains(t.point_id) ? points[t.point_id]->ordinal : 0; };
  std::stable_sort(out.points.begin(), out.points.end(), [&](const auto& a, const auto& b) { return ordinal(a) < ordinal(b); });
  return out;
}

std::string timelines_html(const Timelines& timelines) {
  if (timelines.points.empty()) return "";
  std::string out = "<h2 id=\"telemetry\">Telemetry</h2>\n";
  for (const auto& p : timelines.points) {
    out += fmt::format("<figure class=\"timeline\" id=\"timeline-{}\">\n", xml_text(p.point_id));
    if (p.timeline)
      out += fmt::format("<img alt=\"timeline of {}\" src=\"data:image/svg+xml;base64,{}\">\n", xml_text(p.point),
                         base64(timeline_svg(*p.timeline, "Telemetry: " + p.point)));
    for (const auto& problem : p.problems) out += fmt::format("<p class=\"error\">{}</p>\n", xml_text(terminal_text(problem)));
    out += fmt::format("<figcaption>{}{}</figcaption>\n</figure>\n", xml_text(caption(p)),
                       p.timeline ? xml_text(series_left_out(*p.timeline)) : " — nothing could be read");
  }
  if (timelines.points_left_out) out += "<p>" + xml_text(left_out(timelines)) + "</p>\n";
  return out;
}

std::string timelines_markdown(const Timelines& timelines) {
  if (timelines.points.empty()) return "";
  std::string out = "## Telemetry\n\nThe timelines (power, utilisation, memory against time) are drawn in report.html.\n\n";
  for (const auto& p : timelines.points) {
    out += fmt::format("- {}{}\n", markdown_cell(caption(p)), p.timeline ? markdown_cell(series_left_out(*p.timeline)) : " — nothing could be read");
    for (const auto& problem : p.problems) out += fmt::format("  - {}\n", markdown_cell(problem));
  }
  if (timelines.points_left_out) out += "\n" + left_out(timelines) + "\n";
  return out + "\n";
}

std::string timelines_json(const Timelines& timelines) {
  if (timelines.points.empty()) return "null";
  std::string out = "[";
  for (const auto& p : timelines.points) {
    std::vector<std::string> nodes, cut;
    for (const auto& e : p.timeline ? p.timeline->ends : std::vector<NodeEnd>{}) {
      nodes.push_back(e.node);
      if (e.cut_short) cut.push_back(e.node);
    }
    out += fmt::format(R"({}{{"point": {}, "label": {}, "run_id": {}, "repetition": {}, "files": )", out.size() > 1 ? ", " : "",
                       json_string(p.point_id), json_string(p.point), p.run_id, p.repetition);
    append_strings(out, p.files);
    out += R"(, "nodes": )";
    append_strings(out, nodes);
    out += R"(, "cut_short": )";
    append_strings(out, cut);
    out += R"(, "problems": )";
    append_strings(out, p.problems);
    out += fmt::format(R"(, "series_left_out": {}}})", p.timeline ? p.timeline->series_left_out : 0);
  }
  return out + "]";
}

}  // namespace sweep::report
