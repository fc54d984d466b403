// sweep-telemetry: one node's sampler of a run (docs/telemetry.md, "The sampler"). Exit codes: those of
// util/exit_codes.h (0 done, 2 usage, 6 io); `stop`: 0 the sampler is gone, 1 it outlived the wait.
#include <cstdio>
#include <string>
#include <vector>

#include <sys/auxv.h>

#include "telemetry/sampler_options.h"
#include "telemetry/sampler_run.h"
#include "telemetry/sampler_stop.h"
#include "util/error.h"
#include "util/exit_codes.h"

namespace {

constexpr double kStopWaitS = 10;

int run(const sweep::telemetry::SamplerOptions& options) {
  using Mode = sweep::telemetry::SamplerOptions::Mode;
  if (options.mode == Mode::help) {
    std::fputs(sweep::telemetry::sampler_usage().c_str(), stdout);
    return 0;
  }
  if (options.mode == Mode::stop) {
    std::string note;
    const int status = sweep::telemetry::stop_sampler(options.stop_pid, kStopWaitS, note);
    if (!note.empty()) std::fprintf(stderr, "sweep-telemetry: %s\n", note.c_str());
    return status;
  }
  return sweep::telemetry::run_sampler(options);
}

}  // namespace

int main(int argc, char** argv) {
  // Setuid or with file capabilities, the caller's --out, --sysfs-root and environment would act with
  // privileges it does not have (docs/telemetry.md: how an administrator opens RAPL instead).
  if (::getauxval(AT_SECURE) != 0) {
    std::fputs("sweep-telemetry: refusing to run setuid, setgid or with file capabilities (docs/telemetry.md)\n", stderr);
    return 2;
  }
  try {
    return run(sweep::telemetry::parse_sampler_options(std::vector<std::string>(argv + 1, argv + argc)));
  } catch (const sweep::Error& e) {
    std::fprintf(stderr, "sweep-telemetry: %s\n", e.message().c_str());
    return sweep::exit_code_for(e.kind());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sweep-telemetry: internal error: %s\n", e.what());
    return static_cast<int>(sweep::ExitCode::internal);
  }
}
