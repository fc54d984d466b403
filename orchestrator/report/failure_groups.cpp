#include "report/failure_groups.h"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "report/points_view.h"

namespace sweep::report {
namespace {

/// `text` with every line indented by `pad`.
std::string indented(const std::string& text, std::string_view pad) {
  std::string out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const auto nl = text.find('\n', pos);
    out += fmt::format("{}{}\n", pad, std::string_view(text).substr(pos, nl == std::string::npos ? std::string::npos : nl - pos));
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return out;
}

/// What makes two failures one cause: the headline, and the last line of output with what differs from
/// run to run taken out: the run's own directory (an interpreter's "can't open file
/// '<run_dir>/train.py'") and the digits (a learning rate, a byte count, a rank), each run of them as #.
std::string cause_key(const store::RunRecord& run, const ReasonParts& parts) {
  std::string line(last_tail_line(parts));
  const std::string dir_name = std::filesystem::path(run.run_dir).filename().string();
  for (const std::string& own : {run.run_dir, dir_name})
    for (std::size_t at; !own.empty() && (at = line.find(own)) != std::string::npos;) line.replace(at, own.size(), "<run>");
  std::string key = parts.headline + '\n';
  for (const char c : line)
    if (!std::isdigit(static_cast<unsigned char>(c))) key += c;
    else if (key.back() != '#') key += '#';
  return key;
}

}  // namespace

std::vector<FailureGroup> group_failures(const std::vector<store::RunRecord>& runs) {
  std::vector<FailureGroup> groups;
  std::vector<std::string> keys;
  for (const auto& run : runs) {
    if (run.state != store::RunState::failed) continue;
    ReasonParts parts = split_reason(run.failure_reason);
    std::string key = cause_key(run, parts);
    const auto same = std::find(keys.begin(), keys.end(), key);
    if (same != keys.end()) {
      ++groups[static_cast<std::size_t>(same - keys.begin())].runs;
      continue;
    }
    keys.push_back(std::move(key));
    groups.push_back({std::move(parts), &run, 1});
  }
  return groups;
}

std::string failure_summary(const std::vector<store::RunRecord>& runs, const std::vector<store::PointRecord>& points,
                            std::size_t max_groups) {
  const auto groups = group_failures(runs);
  const auto point_text = [&](const std::string& id) {
    const auto p = std::find_if(points.begin(), points.end(), [&](const store::PointRecord& r) { return r.point_id == id; });
    return p == points.end() ? id : fmt::format("{} ({})", id, point_label(*p));
  };
  if (groups.empty()) return "";
  std::string out = groups.size() == 1 ? "why they failed:\n" : fmt::format("why they failed ({} causes):\n", groups.size());
  for (std::size_t i = 0; i < groups.size() && i < max_groups; ++i) {
    const FailureGroup& g = groups[i];
    out += fmt::format("  {} run{}: {}\n", g.runs, g.runs == 1 ? "" : "s", g.cause.headline);
    out += fmt::format("    {}point {} repetition {}: {}\n", g.runs == 1 ? "" : "first: ", point_text(g.first->point_id),
                       g.first->repetition, g.first->run_dir);
    if (!g.cause.details.empty()) out += indented(g.cause.details, "  ");
    if (!g.cause.tail.empty()) {
      out += fmt::format("    --- its last lines of {} ---\n", g.cause.stream);
      out += indented(g.cause.tail, "    | ");
    }
  }
  if (groups.size() > max_groups)
    out += fmt::format("  ... and {} more cause{}\n", groups.size() - max_groups, groups.size() - max_groups == 1 ? "" : "s");
  return out;
}

}  // namespace sweep::report
