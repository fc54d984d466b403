#pragma once
// Running a short helper command and capturing its output (git, scheduler queries, tool versions).
#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sweep::exec {

struct Captured {
  int exit_code = -1;   // -1 when killed or not started
  std::string out;      // standard output
  std::string err;      // standard error
  bool timed_out = false;
};

/// Runs argv[0] (looked up in PATH unless it has a '/', as execvp) with the rest as arguments, in `cwd`
/// ("" = current), stdin from /dev/null, with this process's environment plus `env` (added or
/// replacing), and waits at most `timeout`, then kills it. Returns nullopt when the program cannot be
/// found or started. Never throws for a failing command.
std::optional<Captured> capture(const std::vector<std::string>& argv, const std::string& cwd = "",
                                std::chrono::milliseconds timeout = std::chrono::seconds(10),
                                const std::vector<std::pair<std::string, std::string>>& env = {});

}  // namespace sweep::exec
