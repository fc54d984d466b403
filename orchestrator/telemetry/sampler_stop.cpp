#include "telemetry/sampler_stop.h"

#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <fstream>
#include <optional>
#include <sstream>

#include "telemetry/proc_stat.h"

namespace sweep::telemetry {
namespace {

std::optional<ProcStat> stat_of(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return parse_proc_stat(text.str());
}

/// Gone: no such process, a zombie, or another process under the pid (another start time).
bool gone(int pid, std::uint64_t starttime) {
  const auto st = stat_of(pid);
  return !st || st->state == 'Z' || st->starttime != starttime;
}

}  // namespace

int stop_sampler(int pid, double wait_s, std::string& note) {
  const auto st = stat_of(pid);
  struct stat owner {};
  const std::string dir = "/proc/" + std::to_string(pid);
  if (!st || st->state == 'Z' || ::stat(dir.c_str(), &owner) != 0) {
    note = "sampler " + std::to_string(pid) + " had already ended";
    return 0;
  }
  if (st->comm != kSamplerComm || owner.st_uid != ::getuid()) {
    note = "process " + std::to_string(pid) + " (" + st->comm + ") is not this user's sweep-telemetry: the sampler " +
           "had ended and its pid is reused; not signalled";
    return 0;
  }
  ::kill(pid, SIGTERM);
  const timespec poll_step{0, 20'000'000};
  for (double waited = 0; waited < wait_s; waited += 0.02) {
    if (gone(pid, st->starttime)) return 0;
    ::nanosleep(&poll_step, nullptr);
  }
  if (gone(pid, st->starttime)) return 0;
  note = "sampler " + std::to_string(pid) + " is still running " + std::to_string(static_cast<int>(wait_s)) +
         " s after SIGTERM";
  return 1;
}

}  // namespace sweep::telemetry
