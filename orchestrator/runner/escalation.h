#pragma once
// The #SBATCH options of one attempt: the point's, with the resources of the experiment's `escalate`
// scaled by the failures of the run's earlier attempts (spec/escalation.h). Pure.
#include <map>
#include <string>
#include <vector>

#include "spec/escalation.h"

namespace sweep::runner {

struct AttemptOptions {
  std::vector<std::string> options;  // sbatch option words, e.g. "--time=00:20:00"
  std::string note;                  // what grew, e.g. "--time=00:20:00 after 1 timeout"; "" when nothing
};

/// `options` with each escalated resource scaled: `failures` counts the earlier attempts' failures by
/// class. Throws Error(invalid_experiment) at the `escalate` entry when the options have no such
/// resource to scale, or its value is not one sbatch takes (e.g. a templated time that rendered "soon").
AttemptOptions attempt_options(std::vector<std::string> options, const std::vector<spec::Escalation>& escalations,
                               const std::map<std::string, int>& failures);

}  // namespace sweep::runner
