#pragma once
// What the sampler's tests share: starting real processes (the sampler, the workloads of
// telemetry_workload.cpp) with an environment of their own, waiting, and reading the file back with
// telemetry::parse_telemetry (the round trip of the writer).
#include <sys/resource.h>
#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

#include "telemetry/log.h"

namespace sweep::telemetry::testing {

/// Starts `argv` with this process's environment plus `env` (NAME -> VALUE); `run_as` (0: this user)
/// switches the child's user first. Its stdout goes to `stdout_file` when not empty. Returns the pid.
pid_t spawn(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env = {},
            uid_t run_as = 0, const std::string& stdout_file = "");

struct Ended {
  int exit_code = -1;  // -1: killed by a signal
  double cpu_s = 0;    // user + system CPU of the process itself (wait4's rusage)
};
/// Waits for `pid` and returns how it ended.
Ended wait_for(pid_t pid);

/// Runs `argv` to its end; its exit code and stdout.
std::pair<int, std::string> run_capture(const std::vector<std::string>& argv,
                                        const std::map<std::string, std::string>& env = {});

std::string read_text(const std::string& path);
/// Whether `pid` is a process that runs (exists and is not a zombie waiting for its parent).
bool running(pid_t pid);
/// Waits (up to 120 s: a bound on a hang, never a timing) until `path` holds `count` lines starting with `prefix`.
bool wait_for_line(const std::string& path, const std::string& prefix, int count = 1);
/// The file, parsed by telemetry::parse_telemetry.
Log read_log(const std::string& path);

/// The built programs.
inline const std::string kSampler = SWEEP_TELEMETRY_BIN;
inline const std::string kWorkload = TELEMETRY_WORKLOAD_BIN;
inline const std::string kNvmlStandin = NVML_STANDIN_LIB;

}  // namespace sweep::telemetry::testing
