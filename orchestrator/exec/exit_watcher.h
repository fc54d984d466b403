#pragma once
// Watches this process's own children for exit without reaping them, so the caller can act on a
// dead child's process group before its pid is released. Internal to exec/.
//
// Each child is watched through a pidfd (pidfd_open(2), Linux >= 5.3) and ppoll(2), so waiting
// costs no CPU and returns as soon as any child exits. Where a pidfd cannot be had (ENOSYS on old
// kernels, or EMFILE), that child is polled with waitid(WNOWAIT) every few milliseconds instead.
//
// Precondition for the whole process: SIGCHLD is not ignored (SIG_IGN would auto-reap children).
#include <sys/types.h>

#include <chrono>
#include <vector>

namespace sweep::exec {

class ExitWatcher {
 public:
  enum class Mode {
    automatic,  // pidfds where the kernel has them
    polling,    // never use pidfds (the fallback path; tests use it)
  };
  explicit ExitWatcher(Mode mode = Mode::automatic);
  /// Closes the pidfds; reaps nothing (the owner reaps or kills first).
  ~ExitWatcher();
  ExitWatcher(const ExitWatcher&) = delete;
  ExitWatcher& operator=(const ExitWatcher&) = delete;

  /// Starts watching `pid`, a child of this process that has not been reaped. Never throws on a
  /// pidfd failure: the child is polled instead.
  void add(pid_t pid);
  /// Number of children watched.
  std::size_t size() const { return children_.size(); }
  /// Number of children watched by polling rather than by pidfd.
  std::size_t polled() const;

  /// Blocks until at least one watched child has exited or `deadline` passes (returns at once when
  /// nothing is watched). Returns the pids of every watched child found exited; they stay watched
  /// and unreaped until reap(). Throws sweep::Error(io) when ppoll fails for a reason other than EINTR.
  std::vector<pid_t> wait_exited(std::chrono::steady_clock::time_point deadline);

  /// Reaps the watched child `pid` (blocking until it exits) and stops watching it. Returns the
  /// waitpid(2) status. Throws sweep::Error(internal) when `pid` is not watched or cannot be reaped.
  int reap(pid_t pid);

 private:
  struct Child {
    pid_t pid;
    int pidfd;  // -1: polled
  };
  std::vector<pid_t> poll_pidfds(std::chrono::steady_clock::time_point deadline);
  std::vector<pid_t> check_polled() const;

  Mode mode_;
  std::vector<Child> children_;
};

}  // namespace sweep::exec
