#include "exec/exit_watcher.h"

#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>

#include <fmt/format.h>

#include "util/error.h"

namespace sweep::exec {
namespace {

using Clock = std::chrono::steady_clock;

/// How often polled children are checked.
constexpr auto kPollInterval = std::chrono::milliseconds(5);

/// A pidfd for `pid` (close-on-exec, as pidfd_open always sets it), or -1 when there is none.
int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  errno = ENOSYS;
  return -1;
#endif
}

timespec to_timespec(Clock::duration d) {
  if (d < Clock::duration::zero()) d = Clock::duration::zero();
  auto s = std::chrono::duration_cast<std::chrono::seconds>(d);
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(d - s);
  return timespec{static_cast<time_t>(s.count()), static_cast<long>(ns.count())};
}

/// True when child `pid` has exited (is a zombie); leaves it unreaped.
bool has_exited(pid_t pid) {
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0)
    return errno == ECHILD;  // gone already: reap() will report it
  return info.si_pid != 0;
}

}  // namespace

ExitWatcher::ExitWatcher(Mode mode) : mode_(mode) {}

ExitWatcher::~ExitWatcher() {
  for (const Child& c : children_)
    if (c.pidfd >= 0) ::close(c.pidfd);
}

void ExitWatcher::add(pid_t pid) {
  int fd = mode_ == Mode::polling ? -1 : open_pidfd(pid);
  if (fd < 0 && errno == ENOSYS) mode_ = Mode::polling;  // don't ask the kernel again
  children_.push_back({pid, fd});
}

std::size_t ExitWatcher::polled() const {
  return static_cast<std::size_t>(
      std::count_if(children_.begin(), children_.end(), [](const Child& c) { return c.pidfd < 0; }));
}

std::vector<pid_t> ExitWatcher::wait_exited(Clock::time_point deadline) {
  if (children_.empty()) return {};
  for (;;) {
    std::vector<pid_t> ready = check_polled();
    if (!ready.empty()) {
      auto more = poll_pidfds(Clock::now());  // collect pidfd children that are ready too
      ready.insert(ready.end(), more.begin(), more.end());
      return ready;
    }
    auto until = polled() > 0 ? std::min(deadline, Clock::now() + kPollInterval) : deadline;
    ready = poll_pidfds(until);
    if (!ready.empty() || Clock::now() >= deadline) return ready;
  }
}

/// One ppoll over the pidfds, sleeping until `until` at most (also when there are none).
std::vector<pid_t> ExitWatcher::poll_pidfds(Clock::time_point until) {
  std::vector<pollfd> fds;
  std::vector<pid_t> pids;
  for (const Child& c : children_) {
    if (c.pidfd < 0) continue;
    fds.push_back({c.pidfd, POLLIN, 0});
    pids.push_back(c.pid);
  }
  timespec timeout = to_timespec(until - Clock::now());
  int n = ::ppoll(fds.data(), fds.size(), &timeout, nullptr);
  if (n < 0 && errno != EINTR)
    throw Error(ErrorKind::io, fmt::format("cannot wait for jobs: ppoll: {}", std::strerror(errno)));
  std::vector<pid_t> ready;
  for (std::size_t i = 0; n > 0 && i < fds.size(); ++i)
    if (fds[i].revents != 0) ready.push_back(pids[i]);
  return ready;
}

std::vector<pid_t> ExitWatcher::check_polled() const {
  std::vector<pid_t> ready;
  for (const Child& c : children_)
    if (c.pidfd < 0 && has_exited(c.pid)) ready.push_back(c.pid);
  return ready;
}

int ExitWatcher::reap(pid_t pid) {
  auto it = std::find_if(children_.begin(), children_.end(), [pid](const Child& c) { return c.pid == pid; });
  if (it == children_.end()) throw Error(ErrorKind::internal, fmt::format("pid {} is not a watched job", pid));
  if (it->pidfd >= 0) ::close(it->pidfd);
  children_.erase(it);
  int status = 0;
  pid_t r;
  do {
    r = ::waitpid(pid, &status, 0);
  } while (r < 0 && errno == EINTR);
  if (r != pid)
    throw Error(ErrorKind::internal, fmt::format("cannot reap job process {}: {}", pid, std::strerror(errno)));
  return status;
}

}  // namespace sweep::exec
