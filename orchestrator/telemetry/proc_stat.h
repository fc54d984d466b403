#pragma once
// The pure parts of reading the workload's processes from /proc (docs/telemetry.md, "The sampler"):
// /proc/<pid>/stat, the VmRSS line of /proc/<pid>/status, the marker in /proc/<pid>/environ, and the
// process tree under a root. No file is read here; proc_sampler.h is the shell.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace sweep::telemetry {

struct ProcStat {
  int pid = 0;
  std::string comm;            // between the first '(' and the last ')': may hold spaces and ')'
  char state = '?';
  int ppid = 0;
  std::uint64_t utime = 0;     // clock ticks
  std::uint64_t stime = 0;
  std::uint64_t cutime = 0;    // of its children that exited and that it waited for (their whole times)
  std::uint64_t cstime = 0;
  std::uint64_t starttime = 0; // clock ticks after boot: with pid, names one process (pids are reused)
};

/// Parses the one line of /proc/<pid>/stat (proc(5)). nullopt when it is not such a line.
std::optional<ProcStat> parse_proc_stat(std::string_view text);

/// VmRSS of /proc/<pid>/status in KiB; nullopt without the line (a kernel thread, a zombie).
std::optional<std::uint64_t> parse_vm_rss_kib(std::string_view status);

/// VmHWM of /proc/<pid>/status in KiB: the process's peak resident memory since it started (or last
/// called exec), which the kernel keeps between samples; nullopt without the line.
std::optional<std::uint64_t> parse_vm_hwm_kib(std::string_view status);

/// Whether the NUL-separated environment `env_block` (/proc/<pid>/environ) holds exactly `marker`
/// ("NAME=VALUE") as one of its entries.
bool environ_has(std::string_view env_block, std::string_view marker);

/// The pids of the tree under `root` (root included) in a parent table pid -> ppid.
std::set<int> tree_under(int root, const std::map<int, int>& parent_of);

}  // namespace sweep::telemetry
