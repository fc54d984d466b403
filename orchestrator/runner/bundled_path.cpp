#include "runner/bundled_path.h"

#include <unistd.h>

#include <cstdlib>

#include <fmt/core.h>

#include "templating/render.h"
#include "util/error.h"

#ifndef SWEEP_DEFAULT_BUNDLED_DIR
#error "SWEEP_DEFAULT_BUNDLED_DIR must be defined by the build"
#endif

namespace sweep::runner {

std::string bundled_dir() {
  const char* env = std::getenv("SWEEP_BUNDLED_DIR");
  return env && *env ? env : SWEEP_DEFAULT_BUNDLED_DIR;
}

std::string command_template(const spec::Workload& workload) {
  if (workload.program.empty()) return workload.command;
  const std::string path = bundled_dir() + "/" + workload.program;
  return templating::shell_quote(path) + (workload.command.empty() ? "" : " " + workload.command);
}

void require_built(const spec::Workload& workload) {
  if (workload.program.empty()) return;
  const std::string path = bundled_dir() + "/" + workload.program;
  if (::access(path.c_str(), X_OK) != 0)
    fail_at(workload.where, fmt::format("bundled program \"{}\" is not built: {} is not an executable file (build it "
                                        "with scripts/build, or set SWEEP_BUNDLED_DIR to its directory)",
                                        workload.program, path));
}

}  // namespace sweep::runner
