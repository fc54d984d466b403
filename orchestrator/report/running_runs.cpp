#include "report/running_runs.h"

#include <fmt/core.h>

#include "util/clock.h"
#include "util/escape.h"

namespace sweep::report {
namespace {

std::string duration_text(double s) {
  const auto t = static_cast<long long>(s < 0 ? 0 : s + 0.5);
  return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60) : fmt::format("{}:{:02}", t / 60, t % 60);
}

std::string optional_string(const std::string& s) { return s.empty() ? "null" : json_string(s); }

}  // namespace

std::string point_params_text(const store::PointRecord& p) {
  std::string out;
  for (const auto& pr : p.params) {
    if (pr.derived) continue;
    if (!out.empty()) out += ", ";
    out += pr.name + "=" + pr.value;
  }
  return out;
}

std::vector<RunningRun> running_runs(const CampaignData& data, std::optional<std::chrono::system_clock::time_point> now) {
  std::vector<RunningRun> out;
  for (const auto& r : data.runs) {
    if (r.state != store::RunState::running) continue;
    RunningRun rr{&r, nullptr, std::nullopt, r.run_dir.empty() ? "" : r.run_dir + "/stdout", false, "", ""};
    for (const auto& p : data.points)
      if (p.point_id == r.point_id) rr.point = &p;
    if (const auto started = parse_iso8601(r.started_at); started && now)
      rr.elapsed_s = std::chrono::duration<double>(*now - *started).count();
    for (const store::AttemptValue& v : data.scheduler_states) {
      if (v.run_id != r.id || v.attempt != r.attempt) continue;
      const std::string_view name = std::string_view(v.key).substr(v.key.find('.') + 1);
      if (name == "phase") rr.queued = v.value == "queued";
      if (name == "state") rr.scheduler_state = v.value;
      if (name == "reason") rr.reason = v.value;
    }
    out.push_back(std::move(rr));
  }
  return out;
}

std::size_t queued_runs(const CampaignData& data) {
  std::size_t n = 0;
  for (const store::AttemptValue& v : data.scheduler_states)
    n += v.key.ends_with(".phase") && v.value == "queued";
  return n;
}

std::string running_section(const std::vector<RunningRun>& runs) {
  std::string queued, running;
  for (const RunningRun& r : runs) {
    const std::string head = fmt::format("  {}  rep {}", r.point ? point_params_text(*r.point) : r.run->point_id, r.run->repetition);
    const std::string elapsed = r.elapsed_s ? "  " + duration_text(*r.elapsed_s) : "";
    if (r.queued)
      queued += fmt::format("{}  {}{}{}\n", head, r.scheduler_state.empty() ? "queued" : r.scheduler_state,
                            r.reason.empty() ? "" : " (" + r.reason + ")", elapsed);
    else
      running += fmt::format("{}{}  {}\n", head, elapsed, r.stdout_path);
  }
  return (queued.empty() ? "" : "\nqueued on the scheduler (state, reason, time since submitted):\n" + queued) +
         (running.empty() ? "" : "\nrunning now:\n" + running);
}

std::string running_json_members(const std::vector<RunningRun>& runs) {
  std::string out;
  for (const RunningRun& r : runs) {
    std::string params;
    if (r.point)
      for (const auto& p : r.point->params)
        if (!p.derived) params += fmt::format("{}{}: {}", params.empty() ? "" : ", ", json_string(p.name), json_string(p.value));
    out += fmt::format(R"({}{{"point_id": {}, "params": {{{}}}, "repetition": {}, "attempt": {}, "started_at": {}, )"
                       R"("elapsed_s": {}, "stdout": {}, "queued": {}, "scheduler_state": {}, "reason": {}}})",
                       out.empty() ? "" : ", ", json_string(r.run->point_id), params, r.run->repetition, r.run->attempt,
                       json_string(r.run->started_at), r.elapsed_s ? json_number(*r.elapsed_s) : "null",
                       json_string(r.stdout_path), r.queued ? "true" : "false", optional_string(r.scheduler_state),
                       optional_string(r.reason));
  }
  return out;
}

}  // namespace sweep::report
