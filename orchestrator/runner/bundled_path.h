#pragma once
// Where the bundled programs (workload.bundled) live, and the command template of a workload.
#include <string>

#include "spec/experiment.h"

namespace sweep::runner {

/// The directory of the bundled programs: $SWEEP_BUNDLED_DIR when set, else an installed sweep's
/// libexec/sweep, else the build's own (where collbench was built): util/resources.h.
std::string bundled_dir();

/// The workload's command template: `command` as written, or for a bundled program its path
/// (shell-quoted) followed by the argument template. Pure: whether the program is built is
/// require_built's question.
std::string command_template(const spec::Workload& workload);

/// Throws Error(invalid_experiment) at the workload's location when it names a bundled program that is
/// not an executable file. Asked after the experiment's own checks, so that a mistake in the file is
/// reported the same whether or not this build has the program.
void require_built(const spec::Workload& workload);

}  // namespace sweep::runner
