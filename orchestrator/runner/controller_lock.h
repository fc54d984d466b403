#pragma once
// One controller per campaign: whoever drives a campaign (run, run --resume, collect, cancel; local or
// Slurm) holds an exclusive flock on <run_root>/.controller.lock for as long as it lives. The kernel
// drops the lock when the process dies, however it dies, so a killed controller never blocks a resume.
#include <string>

namespace sweep::runner {

/// The lock file's name in the run root.
inline constexpr const char* kControllerLockFile = ".controller.lock";

class ControllerLock {
 public:
  /// Takes the lock, writing this process's pid into the file. Error(usage) naming the holder's pid when
  /// another process holds it (or saying that it is starting, when it has not written its pid yet);
  /// Error(io) when the file cannot be opened.
  ControllerLock(const std::string& run_root, const std::string& label);
  ~ControllerLock();
  ControllerLock(const ControllerLock&) = delete;
  ControllerLock& operator=(const ControllerLock&) = delete;

 private:
  int fd_ = -1;
};

/// Whether a live process is named in <run_root>/.controller.lock: a controller (run, collect, ...) may
/// be driving the campaign now. False when the file is absent or names a process that ended (a
/// detached campaign: `sweep run --detach` wrote its pid and exited). Takes no lock (a reader must not
/// make a starting controller fail); a reused pid can make it say true.
bool controller_alive(const std::string& run_root);

}  // namespace sweep::runner
