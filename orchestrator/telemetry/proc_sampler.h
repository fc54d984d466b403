#pragma once
// The shell of the `proc` source: lists /proc and reads the workload's processes on this node
// (docs/telemetry.md, "The sampler"). Selected: processes owned by this process's user whose
// environment holds the marker, plus the tree under the root pid; never a sampler. A process
// once selected stays selected while it lives (a child reparented to init still counts).
#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace sweep::telemetry {

struct ProcReading {
  double cpu_s = 0;    // utime + stime: the last value seen of every process ever selected, summed
  double rss_mib = 0;  // VmRSS summed over the selected processes alive now
  int nprocs = 0;      // how many are alive now
};

class ProcSampler {
 public:
  /// `proc_root`: "/proc" (tests may not move it: the processes are real). `marker`: "NAME=VALUE" or ""
  /// for none; `root_pid`: 0 for none. No process named sweep-telemetry is ever selected (this one, the
  /// --daemon launcher waiting for it, `stop`, the sampler of another run).
  ProcSampler(std::string proc_root, std::string marker, int root_pid);

  /// One scan of /proc. A process that appears and exits within one interval may be missed.
  ProcReading sample();

 private:
  using Key = std::pair<int, std::uint64_t>;  // (pid, starttime): a reused pid is another process
  bool has_marker(const Key& key);

  std::string proc_root_;
  std::string marker_;
  int root_pid_;
  int self_pid_;
  unsigned uid_;
  double ticks_per_s_;
  std::map<Key, bool> marker_cache_;          // environ read once per process
  std::map<Key, std::uint64_t> cpu_ticks_;    // every process ever selected: its last utime + stime
};

}  // namespace sweep::telemetry
