#include "runner/escalation.h"

#include <fmt/core.h>

#include <algorithm>

#include "spec/time_limit.h"
#include "util/strings.h"

namespace sweep::runner {

std::vector<sched::Resource> with_time_limit(std::vector<sched::Resource> resources, double seconds) {
  sched::Resource limit{"time", spec::slurm_time_text(seconds), SourceLocation{"--timeout", 0, 0}};
  const auto it = std::find_if(resources.begin(), resources.end(), [](const auto& r) { return r.key == "time"; });
  if (it == resources.end()) resources.push_back(std::move(limit));
  else *it = std::move(limit);
  return resources;
}

AttemptResources attempt_resources(std::vector<sched::Resource> resources, const std::vector<spec::Escalation>& escalations,
                                   const std::map<std::string, int>& failures) {
  AttemptResources out;
  std::vector<std::string> notes;
  for (const spec::Escalation& e : escalations) {
    const auto f = failures.find(e.failure_class);
    const int count = f == failures.end() ? 0 : f->second;
    const auto it = std::find_if(resources.begin(), resources.end(), [&](const auto& r) { return r.key == e.resource; });
    if (it == resources.end())
      fail_at(e.where, fmt::format("\"escalate.{}\" has nothing to scale: the run's resources set no \"{}\"", e.resource,
                                   e.resource));
    if (count == 0) continue;
    const bool time = e.resource == "time";
    const auto base = time ? spec::parse_time_limit(it->value).seconds : spec::slurm_memory_mib(it->value);
    if (!base)
      fail_at(e.where, fmt::format("\"escalate.{}\" cannot scale \"{}\"{}: expected {}", e.resource, it->value,
                                   it->where.str().empty() ? "" : " (at " + it->where.str() + ")",
                                   time ? "a finite time limit such as 30 or 01:00:00" : "a memory size such as 4000 or 4G"));
    const double grown = spec::escalated(*base, e, count);
    it->value = time ? spec::slurm_time_text(grown) : spec::slurm_memory_text(grown);
    notes.push_back(fmt::format("{}={} after {} {}", e.resource, it->value, count, e.failure_class));
  }
  out.resources = std::move(resources);
  out.note = join(notes, ", ");
  return out;
}

}  // namespace sweep::runner
