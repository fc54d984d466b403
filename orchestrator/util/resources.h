#pragma once
// Where sweep's own files are: the bundled programs and the job-script templates, in an installed
// layout (<prefix>/bin/sweep, <prefix>/libexec/sweep/, <prefix>/share/sweep/templates/) or in the
// build tree it was built in (docs/install.md).
#include <string>
#include <string_view>

namespace sweep {

/// The directory of the running executable (/proc/self/exe), or "" when it cannot be read.
std::string executable_dir();

/// In order: the environment variable `env` when set and not empty; `<executable_dir>/<installed>`
/// when that directory exists (an installed sweep); `built` (the build tree's, compiled in).
std::string resource_dir(const char* env, std::string_view installed, const std::string& built);

}  // namespace sweep
