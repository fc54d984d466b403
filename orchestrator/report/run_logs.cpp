#include "report/run_logs.h"

#include <fmt/core.h>

#include <algorithm>
#include <fstream>
#include <thread>

#include "report/running_runs.h"
#include "util/error.h"
#include "util/strings.h"

namespace sweep::report {
namespace {

bool matches(const store::PointRecord& point, const PointFilter& filter) {
  return std::all_of(filter.begin(), filter.end(), [&](const auto& f) {
    return std::any_of(point.params.begin(), point.params.end(),
                       [&](const store::ParamRecord& p) { return p.name == f.first && p.value == f.second; });
  });
}

void check_names(const CampaignData& data, const PointFilter& filter) {
  if (data.points.empty()) return;
  std::vector<std::string> names;
  for (const auto& p : data.points.front().params) names.push_back(p.name);
  for (const auto& [name, value] : filter)
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw Error(ErrorKind::usage, fmt::format("--where: campaign \"{}\" has no parameter \"{}\" (its parameters: {}){}",
                                                data.campaign.label, name, join(names, ", "), did_you_mean(name, names)));
}

/// Reads the bytes of `path` from `offset` to its current end ("" when it cannot be read).
std::string read_from(const std::string& path, std::size_t offset) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  in.seekg(static_cast<std::streamoff>(offset));
  if (!in) return "";
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

PointFilter parse_point_filter(std::string_view text) {
  PointFilter out;
  for (const std::string& entry : split(text, ',')) {
    const std::string_view e = trim(entry);
    if (e.empty() && trim(text).empty()) continue;
    const auto eq = e.find('=');
    if (eq == std::string_view::npos || trim(e.substr(0, eq)).empty())
      throw Error(ErrorKind::usage, fmt::format("--where takes name=value entries separated by commas (n=3,threads=2), "
                                                "got \"{}\"", e));
    out.emplace_back(std::string(trim(e.substr(0, eq))), std::string(trim(e.substr(eq + 1))));
  }
  return out;
}

LogChoice choose_log_run(const CampaignData& data, const PointFilter& filter, std::optional<int> rep, bool stderr_stream) {
  check_names(data, filter);
  std::size_t matching = 0;
  LogChoice best;
  for (const auto& r : data.runs) {
    const auto point = std::find_if(data.points.begin(), data.points.end(),
                                    [&](const store::PointRecord& p) { return p.point_id == r.point_id; });
    if (point == data.points.end() || !matches(*point, filter) || (rep && r.repetition != *rep)) continue;
    ++matching;
    if (r.attempt == 0 || r.run_dir.empty()) continue;
    const bool running = r.state == store::RunState::running;
    const bool best_running = best.run && best.run->state == store::RunState::running;
    if (!best.run || (running && !best_running) || (running == best_running && !best_running && r.started_at >= best.run->started_at))
      best = LogChoice{&r, &*point, r.run_dir + (stderr_stream ? "/stderr" : "/stdout")};
  }
  if (!best.run)
    throw Error(ErrorKind::not_found,
                matching == 0 ? fmt::format("no run of campaign \"{}\" matches", data.campaign.label)
                              : fmt::format("none of the {} matching run{} of campaign \"{}\" has started yet", matching,
                                            matching == 1 ? "" : "s", data.campaign.label));
  return best;
}

std::string describe_choice(const LogChoice& c) {
  return fmt::format("point {}, rep {}, attempt {} ({}): {}", point_params_text(*c.point), c.run->repetition, c.run->attempt,
                     store::state_name(c.run->state), c.path);
}

std::size_t follow_file(const std::string& path, std::size_t from, const std::function<bool()>& running,
                        const std::function<bool()>& stop, const std::function<void(std::string_view)>& out,
                        std::chrono::milliseconds interval) {
  std::size_t offset = from;
  for (;;) {
    const bool ended = !running();  // asked before reading: what the attempt wrote before it ended is read below
    const std::string chunk = read_from(path, offset);
    const std::size_t whole = ended ? chunk.size() : chunk.rfind('\n') + 1;  // npos + 1 == 0: no whole line yet
    if (whole > 0) {
      out(std::string_view(chunk).substr(0, whole));
      offset += whole;
    }
    if (ended || stop()) return offset - from;
    std::this_thread::sleep_for(interval);
  }
}

}  // namespace sweep::report
