#pragma once
// The shell of the `proc` source: lists /proc and reads the workload's processes on this node
// (docs/telemetry.md, "The sampler"). Selected: processes owned by this process's user whose
// environment holds the marker, plus the tree under the root pid; never a sampler. A process
// once selected stays selected while it lives (a child reparented to init still counts).
#include <cstdint>
#include <map>
#include <optional>
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
  /// `proc_root`: "/proc" (a unit test may name a directory of stand-in <pid>/stat files). `marker`:
  /// "NAME=VALUE" or "" for none; `root_pid`: 0 for none. No process named sweep-telemetry is ever
  /// selected (this one, the --daemon launcher waiting for it, `stop`, the sampler of another run).
  ProcSampler(std::string proc_root, std::string marker, int root_pid);

  /// One scan of /proc. The CPU time is, over every process ever selected, the last utime + stime seen,
  /// plus the cutime + cstime its waited-for children added since it was first seen (the whole time of
  /// a child that came and went within one interval, which no scan saw). A selected process that is gone
  /// was waited for by its absorber (its parent when that lives on; else the absorber of its parent, a
  /// gone process itself waited for, whose cutime carried it) when the absorber's cutime + cstime grew,
  /// in the scan it went missing or the next one, by at least its last total: its time is then counted
  /// in the absorber's and no longer on its own. The next scan too, because a scan is no snapshot: the
  /// kernel adds a child to its parent's cutime before its pid leaves /proc, but a scan that read the
  /// parent before the child was reaped sees the child gone and the growth only one scan later. A
  /// parent that did not wait leaves it counted where it was. The CPU time never decreases from one
  /// scan to the next. Memory and the count: the processes alive now; the peak: the largest VmHWM of
  /// one process ever selected.
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
    int chances = 0;                // gone: the scans left in which it may still be matched to its absorber
    bool in_parent = false;         // gone, and counted in its absorber's reaped
    Key absorber{0, 0};             // in_parent: the live process whose reaped holds its time
    std::uint64_t hwm_kib = 0;      // VmHWM, largest seen
  };
  bool has_marker(const Key& key);
  /// Marks the selected processes missing from `alive_start` (pid -> starttime) gone, and matches each
  /// gone one not yet matched, in its first two scans gone, to its absorber when the absorber's growth
  /// this scan, less what other gone processes took of it, covers its last total (sample() says why).
  void settle_gone(const std::map<int, std::uint64_t>& alive_start);
  /// The live process whose reaped time holds the gone process `s` once it is waited for, or nullopt.
  std::optional<Key> absorber_of(const Seen& s, const std::map<int, std::uint64_t>& alive_start) const;

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
