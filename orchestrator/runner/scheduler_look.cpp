#include "runner/scheduler_look.h"

#include <fmt/core.h>

#include <map>

namespace sweep::runner {

std::vector<store::AttemptValue> scheduler_state_values(std::string_view scheduler, std::int64_t run_id, int attempt,
                                                        sched::Phase phase, const sched::JobRecord& rec) {
  const auto key = [&](std::string_view name) { return fmt::format("{}.{}", scheduler, name); };
  const bool queued = phase == sched::Phase::queued;
  return {{run_id, attempt, key("phase"), queued ? "queued" : "running"},
          {run_id, attempt, key("state"), rec.state},
          {run_id, attempt, key("reason"), queued ? rec.reason : ""}};
}

std::optional<SchedulerLook> look_at_scheduler(const store::Store& db, const store::CampaignRecord& campaign,
                                               sched::Scheduler& scheduler) {
  if (!scheduler.installed()) return std::nullopt;
  std::map<std::int64_t, int> running;  // run id -> its attempt under way
  for (const auto& r : db.runs(campaign.id))
    if (r.state == store::RunState::running) running[r.id] = r.attempt;
  SchedulerLook look;
  for (const auto& sub : db.submissions(campaign.id)) {
    if (sub.state != "submitted") continue;
    std::vector<store::SubmissionTask> tasks;
    for (const auto& t : sub.tasks)
      if (const auto it = running.find(t.run_id); it != running.end() && it->second == t.attempt) tasks.push_back(t);
    if (tasks.empty()) continue;
    look.under_way += tasks.size();
    const auto records = scheduler.array_jobs(sub.job_id);
    if (!records) return std::nullopt;
    const auto by_task = sched::index_by_task(*records);
    for (const auto& t : tasks) {
      const auto found = by_task.find({sub.job_id, t.task});
      if (found == by_task.end()) continue;
      const sched::JobRecord* rec = found->second;
      const sched::Phase phase = scheduler.state_info(rec->state).phase;
      if (phase == sched::Phase::finished) continue;
      for (auto& v : scheduler_state_values(scheduler.name(), t.run_id, t.attempt, phase, *rec)) look.states.push_back(std::move(v));
    }
  }
  return look;
}

}  // namespace sweep::runner
