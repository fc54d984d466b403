#pragma once
// Where the bundled programs (workload.bundled) live, and the command template of a workload.
#include <string>

#include "spec/experiment.h"

namespace sweep::runner {

/// The directory of the bundled programs: $SWEEP_BUNDLED_DIR when set, else the build's own
/// (where collbench was built).
std::string bundled_dir();

/// The workload's command template: `command` as written, or for a bundled program its path
/// (shell-quoted) followed by the argument template. Throws Error(invalid_experiment) at the
/// workload's location when the bundled program is not an executable file.
std::string command_template(const spec::Workload& workload);

}  // namespace sweep::runner
