#include "runner/escalation.h"

#include <fmt/core.h>

#include "util/strings.h"

namespace sweep::runner {

AttemptOptions attempt_options(std::vector<std::string> options, const std::vector<spec::Escalation>& escalations,
                               const std::map<std::string, int>& failures) {
  AttemptOptions out;
  std::vector<std::string> notes;
  for (const spec::Escalation& e : escalations) {
    const auto f = failures.find(e.failure_class);
    const int count = f == failures.end() ? 0 : f->second;
    const std::string prefix = "--" + e.resource + "=";
    auto it = options.begin();
    while (it != options.end() && it->rfind(prefix, 0) != 0) ++it;
    if (it == options.end())
      fail_at(e.where, fmt::format("\"escalate.{}\" has no {} to scale: the run's resources set no \"{}\"", e.resource,
                                   prefix.substr(0, prefix.size() - 1), e.resource));
    if (count == 0) continue;
    const std::string value = it->substr(prefix.size());
    const bool time = e.resource == "time";
    const auto base = time ? spec::slurm_time_seconds(value) : spec::slurm_memory_mib(value);
    if (!base)
      fail_at(e.where, fmt::format("\"escalate.{}\" cannot scale \"{}\": expected {}", e.resource, value,
                                   time ? "a time limit such as 30 or 01:00:00" : "a memory size such as 4000 or 4G"));
    const double grown = spec::escalated(*base, e, count);
    *it = prefix + (time ? spec::slurm_time_text(grown) : spec::slurm_memory_text(grown));
    notes.push_back(fmt::format("{} after {} {}", *it, count, e.failure_class));
  }
  out.options = std::move(options);
  out.note = join(notes, ", ");
  return out;
}

}  // namespace sweep::runner
