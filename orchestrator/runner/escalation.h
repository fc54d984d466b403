#pragma once
// The resources of one attempt: the point's, with those of the experiment's `escalate` scaled by the
// failures of the run's earlier attempts (spec/escalation.h). Pure.
#include <map>
#include <string>
#include <vector>

#include "sched/resources.h"
#include "spec/escalation.h"

namespace sweep::runner {

struct AttemptResources {
  std::vector<sched::Resource> resources;  // effective resources (sched/resources.h)
  std::string note;                        // what grew, e.g. "time=00:20:00 after 1 timeout"; "" when nothing
};

/// `resources` with its `time` set to `seconds` in sbatch's notation (spec/time_limit.h), added when it
/// has none: `sweep run --timeout`, which overrides resources.time for every run. The entry's place is
/// "--timeout" (an escalation that cannot scale it names that).
std::vector<sched::Resource> with_time_limit(std::vector<sched::Resource> resources, double seconds);

/// `resources` with each escalated one scaled: `failures` counts the earlier attempts' failures by
/// class. Throws Error(invalid_experiment) at the `escalate` entry when the point has no such resource
/// to scale, or its value is not one the scheduler takes (e.g. a templated time that rendered "soon").
AttemptResources attempt_resources(std::vector<sched::Resource> resources, const std::vector<spec::Escalation>& escalations,
                                   const std::map<std::string, int>& failures);

}  // namespace sweep::runner
