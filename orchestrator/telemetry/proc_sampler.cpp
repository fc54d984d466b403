#include "telemetry/proc_sampler.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "telemetry/proc_stat.h"

namespace sweep::telemetry {
namespace {

std::optional<std::string> read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text;
}

/// The numeric entries of /proc owned by `uid`.
std::vector<int> own_pids(const std::string& proc_root, unsigned uid) {
  std::vector<int> pids;
  DIR* dir = ::opendir(proc_root.c_str());
  if (dir == nullptr) return pids;
  while (const dirent* entry = ::readdir(dir)) {
    char* end = nullptr;
    const long pid = std::strtol(entry->d_name, &end, 10);
    if (end == entry->d_name || *end != '\0') continue;
    struct stat st {};
    const std::string path = proc_root + "/" + entry->d_name;
    if (::stat(path.c_str(), &st) == 0 && st.st_uid == uid) pids.push_back(static_cast<int>(pid));
  }
  ::closedir(dir);
  return pids;
}

}  // namespace

ProcSampler::ProcSampler(std::string proc_root, std::string marker, int root_pid, int exclude_pid)
    : proc_root_(std::move(proc_root)),
      marker_(std::move(marker)),
      root_pid_(root_pid),
      self_pid_(static_cast<int>(::getpid())),
      exclude_pid_(exclude_pid),
      uid_(::getuid()),
      ticks_per_s_(static_cast<double>(::sysconf(_SC_CLK_TCK))) {}

bool ProcSampler::has_marker(const Key& key) {
  if (marker_.empty()) return false;
  if (const auto it = marker_cache_.find(key); it != marker_cache_.end()) return it->second;
  const auto environ = read_whole(proc_root_ + "/" + std::to_string(key.first) + "/environ");
  const bool found = environ && environ_has(*environ, marker_);
  marker_cache_[key] = found;
  return found;
}

ProcReading ProcSampler::sample() {
  std::map<int, ProcStat> alive;
  std::map<int, int> parent_of;
  for (const int pid : own_pids(proc_root_, uid_)) {
    if (pid == self_pid_ || pid == exclude_pid_) continue;
    const auto text = read_whole(proc_root_ + "/" + std::to_string(pid) + "/stat");
    const auto st = text ? parse_proc_stat(*text) : std::nullopt;
    if (!st) continue;
    parent_of[pid] = st->ppid;
    alive.emplace(pid, *st);
  }
  const std::set<int> tree = root_pid_ > 0 ? tree_under(root_pid_, parent_of) : std::set<int>{};
  ProcReading reading;
  for (const auto& [pid, st] : alive) {
    const Key key{pid, st.starttime};
    const bool known = cpu_ticks_.count(key) > 0;
    if (st.state == 'Z') {  // exited, not yet reaped: its final times, no memory
      if (known) cpu_ticks_[key] = st.utime + st.stime;
      continue;
    }
    if (!known && !tree.count(pid) && !has_marker(key)) continue;
    cpu_ticks_[key] = st.utime + st.stime;
    const auto status = read_whole(proc_root_ + "/" + std::to_string(pid) + "/status");
    if (const auto kib = status ? parse_vm_rss_kib(*status) : std::nullopt) reading.rss_mib += static_cast<double>(*kib) / 1024.0;
    ++reading.nprocs;
  }
  std::uint64_t ticks = 0;
  for (const auto& [key, t] : cpu_ticks_) ticks += t;
  reading.cpu_s = static_cast<double>(ticks) / ticks_per_s_;
  // Forget the environment of processes that are gone (their pid may come back as another process).
  std::erase_if(marker_cache_, [&](const auto& entry) { return !alive.count(entry.first.first); });
  return reading;
}

}  // namespace sweep::telemetry
