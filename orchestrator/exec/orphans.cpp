#include "exec/orphans.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>
#include <vector>

namespace sweep::exec {
namespace {

/// Calls `f(pid, /proc/<pid>)` for every process listed in /proc.
template <typename F>
void for_each_process(F&& f) {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    f(static_cast<pid_t>(std::stol(name)), e.path());
  }
}

/// Whether the NUL-separated environment block `env` holds `entry` as a whole item.
bool has_entry(const std::string& env, const std::string& entry) {
  for (std::size_t pos = 0; (pos = env.find(entry, pos)) != std::string::npos; pos += entry.size()) {
    const bool starts = pos == 0 || env[pos - 1] == '\0';
    const bool ends = pos + entry.size() == env.size() || env[pos + entry.size()] == '\0';
    if (starts && ends) return true;
  }
  return false;
}

/// Pids whose /proc/<pid>/environ contains `entry` as a whole NUL-separated item.
std::vector<pid_t> marked_processes(const std::string& entry) {
  std::vector<pid_t> out;
  for_each_process([&](pid_t pid, const std::filesystem::path& proc) {
    std::ifstream in(proc / "environ", std::ios::binary);
    const std::string env((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (has_entry(env, entry)) out.push_back(pid);
  });
  return out;
}

}  // namespace

std::size_t kill_job_leftovers(const std::string& run_dir) {
  const std::string entry = std::string(kJobMarker) + "=" + run_dir;
  std::size_t killed = 0;
  for (int round = 0; round < 40; ++round) {
    const auto pids = marked_processes(entry);
    if (pids.empty()) break;
    for (pid_t pid : pids)
      if (pid != ::getpid() && ::kill(pid, SIGKILL) == 0 && round == 0) ++killed;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return killed;
}

std::size_t processes_in(const std::string& dir, const std::string& program) {
  std::error_code ec;
  const auto wanted = std::filesystem::weakly_canonical(dir, ec);
  if (ec) return 0;
  std::size_t n = 0;
  for_each_process([&](pid_t, const std::filesystem::path& proc) {
    std::error_code link_ec;  // a zombie, or a process gone meanwhile, has no readable cwd
    if (std::filesystem::read_symlink(proc / "cwd", link_ec) != wanted || link_ec) return;
    std::string comm;
    std::getline(std::ifstream(proc / "comm"), comm);
    if (comm == program) ++n;
  });
  return n;
}

}  // namespace sweep::exec
