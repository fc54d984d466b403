#include "telemetry/proc_sampler.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <set>
#include <vector>

#include "telemetry/proc_stat.h"
#include "telemetry/sampler_stop.h"

namespace sweep::telemetry {
namespace {

/// The content of the open file `fd` (read(2) to its end: /proc files have no size to ask for), or
/// nullopt. Closes `fd`.
std::optional<std::string> read_and_close(int fd) {
  std::string text;
  char buffer[4096];
  ssize_t n = 0;
  while ((n = ::read(fd, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(n));
  ::close(fd);
  if (n < 0) return std::nullopt;
  return text;
}

std::optional<std::string> read_whole(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  return read_and_close(fd);
}

/// The stat of every process in `proc_root` owned by `uid` (the owner of /proc/<pid>/stat: the
/// process's effective user). One openat, fstat and read per process: this is the sampler's cost.
std::vector<ProcStat> own_processes(const std::string& proc_root, unsigned uid) {
  std::vector<ProcStat> processes;
  DIR* dir = ::opendir(proc_root.c_str());
  if (dir == nullptr) return processes;
  while (const dirent* entry = ::readdir(dir)) {
    if (entry->d_name[0] < '1' || entry->d_name[0] > '9') continue;
    const std::string name = std::string(entry->d_name) + "/stat";
    const int fd = ::openat(::dirfd(dir), name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || st.st_uid != uid) {
      ::close(fd);
      continue;
    }
    const auto text = read_and_close(fd);
    if (auto parsed = text ? parse_proc_stat(*text) : std::nullopt) processes.push_back(std::move(*parsed));
  }
  ::closedir(dir);
  return processes;
}

}  // namespace

ProcSampler::ProcSampler(std::string proc_root, std::string marker, int root_pid)
    : proc_root_(std::move(proc_root)),
      marker_(std::move(marker)),
      root_pid_(root_pid),
      self_pid_(static_cast<int>(::getpid())),
      uid_(::getuid()),
      ticks_per_s_(static_cast<double>(::sysconf(_SC_CLK_TCK))) {}

bool ProcSampler::has_marker(const Key& key) {
  if (marker_.empty()) return false;
  if (const auto it = marker_cache_.find(key); it != marker_cache_.end()) return it->second;
  const auto env_block = read_whole(proc_root_ + "/" + std::to_string(key.first) + "/environ");
  const bool found = env_block && environ_has(*env_block, marker_);
  marker_cache_[key] = found;
  return found;
}

ProcReading ProcSampler::sample() {
  std::map<int, ProcStat> alive;
  std::map<int, int> parent_of;
  std::map<int, std::uint64_t> alive_start;
  for (auto& st : own_processes(proc_root_, uid_)) {
    // No sampler counts: this one, its --daemon launcher, `stop`, another run's.
    if (st.pid == self_pid_ || st.comm == kSamplerComm) continue;
    parent_of[st.pid] = st.ppid;
    alive_start[st.pid] = st.starttime;
    alive.emplace(st.pid, std::move(st));
  }
  const std::set<int> tree = root_pid_ > 0 ? tree_under(root_pid_, parent_of) : std::set<int>{};
  ProcReading reading;
  for (const auto& [pid, st] : alive) {
    const Key key{pid, st.starttime};
    const auto known = seen_.find(key);
    if (known == seen_.end() && (st.state == 'Z' || (!tree.count(pid) && !has_marker(key)))) continue;
    Seen& s = known != seen_.end() ? known->second : seen_[key];
    const std::uint64_t reaped = st.cutime + st.cstime;
    if (known == seen_.end()) s.reaped = s.reaped_base = reaped;
    s.reaped_grew = reaped > s.reaped ? reaped - s.reaped : 0;
    s.own = st.utime + st.stime;
    s.reaped = std::max(reaped, s.reaped);
    const auto parent = alive_start.find(st.ppid);
    s.parent = {st.ppid, parent == alive_start.end() ? 0 : parent->second};
    if (st.state == 'Z') continue;  // exited, not yet reaped: its final times, no memory
    const auto status = read_whole(proc_root_ + "/" + std::to_string(pid) + "/status");
    if (const auto kib = status ? parse_vm_rss_kib(*status) : std::nullopt) reading.rss_mib += static_cast<double>(*kib) / 1024.0;
    if (const auto kib = status ? parse_vm_hwm_kib(*status) : std::nullopt) s.hwm_kib = std::max(s.hwm_kib, *kib);
    ++reading.nprocs;
  }
  settle_gone(alive_start);
  std::uint64_t ticks = 0, hwm_kib = 0;
  for (const auto& [key, s] : seen_) {
    if (!s.in_parent) ticks += s.own + (s.reaped - s.reaped_base);
    hwm_kib = std::max(hwm_kib, s.hwm_kib);
  }
  reading.peak_mib = static_cast<double>(hwm_kib) / 1024.0;
  reading.cpu_s = static_cast<double>(ticks) / ticks_per_s_;
  // Forget the environment of processes that are gone (their pid may come back as another process).
  std::erase_if(marker_cache_, [&](const auto& entry) { return !alive.count(entry.first.first); });
  return reading;
}

std::optional<ProcSampler::Key> ProcSampler::absorber_of(const Seen& s,
                                                         const std::map<int, std::uint64_t>& alive_start) const {
  // Up the parents that are gone and were waited for: each carried what it waited for into its absorber.
  Key key = s.parent;
  for (std::size_t hops = 0; hops <= seen_.size(); ++hops) {
    const auto seen = seen_.find(key);
    if (seen == seen_.end()) return std::nullopt;  // not selected
    const auto now = alive_start.find(key.first);
    if (now != alive_start.end() && now->second == key.second) return key;
    if (!seen->second.in_parent) return std::nullopt;  // gone, and not (yet) known to be waited for
    key = seen->second.absorber;
  }
  return std::nullopt;
}

void ProcSampler::settle_gone(const std::map<int, std::uint64_t>& alive_start) {
  std::vector<std::pair<const Key, Seen>*> unmatched;
  for (auto& entry : seen_) {
    auto& [key, s] = entry;
    const auto now = alive_start.find(key.first);
    if (now != alive_start.end() && now->second == key.second) continue;
    if (!s.gone) s.gone = true, s.chances = 2;
    if (!s.in_parent && s.chances > 0) unmatched.push_back(&entry);
  }
  // A parent starts before its children: it is matched first, so that they find its absorber.
  const auto started_before = [](const auto* a, const auto* b) {
    return std::make_pair(a->first.second, a->first.first) < std::make_pair(b->first.second, b->first.first);
  };
  std::sort(unmatched.begin(), unmatched.end(), started_before);
  std::map<Key, std::uint64_t> budget;  // per absorber: its growth this scan not yet matched to a gone process
  for (auto* entry : unmatched) {
    Seen& s = entry->second;
    --s.chances;
    const auto absorber = absorber_of(s, alive_start);
    if (!absorber) continue;
    const auto left = budget.try_emplace(*absorber, seen_.at(*absorber).reaped_grew).first;
    if (left->second < s.own + s.reaped) continue;  // not waited for by it (or not yet: the next scan)
    left->second -= s.own + s.reaped;
    s.in_parent = true;
    s.absorber = *absorber;
  }
}

}  // namespace sweep::telemetry
