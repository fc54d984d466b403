#include "runner/bundled_path.h"

#include <unistd.h>

#include <cstdlib>

#include <fmt/core.h>

#include "templating/render.h"
#include "util/error.h"
#include "util/resources.h"

#ifndef SWEEP_DEFAULT_BUNDLED_DIR
#error "SWEEP_DEFAULT_BUNDLED_DIR must be defined by the build"
#endif

namespace sweep::runner {

std::string bundled_dir() { return resource_dir("SWEEP_BUNDLED_DIR", "../libexec/sweep", SWEEP_DEFAULT_BUNDLED_DIR); }

namespace {

std::string program_path(const spec::Workload& workload) { return bundled_dir() + "/" + workload.program; }

}  // namespace

std::string command_template(const spec::Workload& workload) {
  if (workload.program.empty()) return workload.command;
  return templating::shell_quote(program_path(workload)) + (workload.command.empty() ? "" : " " + workload.command);
}

void require_built(const spec::Workload& workload) {
  if (workload.program.empty()) return;
  const std::string path = program_path(workload);
  if (::access(path.c_str(), X_OK) != 0)
    fail_at(workload.where, fmt::format("bundled program \"{}\" is not built: {} is not an executable file (build it "
                                        "with scripts/build, or set SWEEP_BUNDLED_DIR to its directory)",
                                        workload.program, path));
}

}  // namespace sweep::runner
