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
  double cpu_s = 0;    // CPU time of every process ever selected (ProcSampler::sample says how)
  double rss_mib = 0;  // VmRSS summed over the selected processes alive now
  int nprocs = 0;      // how many are alive now
  double peak_mib = 0; // the largest VmHWM of one selected process, over every one ever selected (the
                       // last seen of one that is gone): a peak between two samples is in it
};

class ProcSampler {
 public:
  /// `proc_root`: "/proc" (tests may not move it: the processes are real). `marker`: "NAME=VALUE" or ""
  /// for none; `root_pid`: 0 for none. No process named sweep-telemetry is ever selected (this one, the
  /// --daemon launcher waiting for it, `stop`, the sampler of another run).
  ProcSampler(std::string proc_root, std::string marker, int root_pid);

  /// One scan of /proc. The CPU time is, over every process ever selected, the last utime + stime seen,
  /// plus the cutime + cstime its waited-for children added since it was first seen (the whole time of
  /// a child that came and went within one interval, which no scan saw). A selected process that is gone,
  /// whose selected parent's cutime + cstime grew by at least its last total since the scan before, was
  /// waited for by it: its time is counted in the parent's and no longer on its own (a parent that did
  /// not wait, or was gone too, leaves it counted where it was). Memory and the count: the processes
  /// alive now; the peak: the largest VmHWM of one process ever selected.
  ProcReading sample();

 private:
  using Key = std::pair<int, std::uint64_t>;  // (pid, starttime): a reused pid is another process
  /// What is kept of a selected process, in clock ticks.
  struct Seen {
    std::uint64_t own = 0;          // utime + stime, last seen
    std::uint64_t reaped = 0;       // cutime + cstime, last seen
    std::uint64_t reaped_base = 0;  // cutime + cstime when first seen (what it waited for before: not ours)
    std::uint64_t reaped_grew = 0;  // how much reaped grew at the last scan
    Key parent{0, 0};               // (ppid, its starttime) when last seen alive
    bool gone = false;              // no longer in /proc: its values are final
    bool in_parent = false;         // gone, and counted in its parent's reaped
    std::uint64_t hwm_kib = 0;      // VmHWM, largest seen
  };
  bool has_marker(const Key& key);
  /// Marks the selected processes missing from `alive` gone, each counted in its parent's reaped time
  /// when the parent's growth covers it.
  void settle_gone(const std::map<int, std::uint64_t>& alive_start);

  std::string proc_root_;
  std::string marker_;
  int root_pid_;
  int self_pid_;
  unsigned uid_;
  double ticks_per_s_;
  std::map<Key, bool> marker_cache_;          // environ read once per process
  std::map<Key, Seen> seen_;                  // every process ever selected
};

}  // namespace sweep::telemetry
