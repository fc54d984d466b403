#pragma once
// The report's telemetry timelines (docs/reports.md#telemetry-timeline): one per point, in point order, of
// its first succeeded run (in run order) whose provenance names telemetry files, at most kMaxTimelines points;
// each drawn by report/timeline_svg.h and shown inline in the HTML report as an <img> of a data: URI
// (as the figures are: nothing in it can run). Files refused or malformed are lines in the report.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/campaign_data.h"
#include "report/timeline.h"

namespace sweep::store {
class Store;
}

namespace sweep::report {

struct PointTimeline {
  std::string point;  // point_label: text from the database
  std::string point_id;
  std::int64_t run_id = 0;
  int repetition = 0;
  std::optional<Timeline> timeline;   // none when no file of the run could be read
  std::vector<std::string> problems;  // report/run_telemetry.h's, file:line:column where malformed
  std::vector<std::string> files;     // as the provenance `telemetry.files` names them (text from the database)
};

struct Timelines {
  std::vector<PointTimeline> points;
  std::size_t points_left_out = 0;  // past kMaxTimelines
};

inline constexpr std::size_t kMaxTimelines = 32;

/// Shell: the campaign's succeeded runs' `telemetry.files` (one read of the store) and their files.
Timelines load_timelines(const store::Store& db, const CampaignData& data);

/// The HTML section, "" when no point has telemetry. Pure.
std::string timelines_html(const Timelines& timelines);
/// The Markdown lines: which run each point's timeline is of (drawn in report.html) and the problems.
std::string timelines_markdown(const Timelines& timelines);
/// report.json's "timelines" (report/json_report.h): [{point, label, run_id, repetition, files, nodes,
/// cut_short, problems}] (nodes: those read, in the drawn order; cut_short: those of them whose file has no
/// `end`), the series left out; null when no point has telemetry (as report.html has no section). Pure.
std::string timelines_json(const Timelines& timelines);

}  // namespace sweep::report
