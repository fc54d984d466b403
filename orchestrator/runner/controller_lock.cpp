#include "runner/controller_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>

#include <fmt/core.h>

#include "util/error.h"
#include "util/strings.h"
#include "util/safe_files.h"

namespace sweep::runner {

ControllerLock::ControllerLock(const std::string& run_root, const std::string& label) {
  make_directories(run_root);
  const std::string path = run_root + "/" + kControllerLockFile;
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd_ < 0) throw Error(ErrorKind::io, fmt::format("cannot open {}", path));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    char pid[32] = {};
    [[maybe_unused]] const auto n = ::pread(fd_, pid, sizeof pid - 1, 0);
    ::close(fd_);
    fd_ = -1;
    const std::string holder(trim(pid));
    throw Error(ErrorKind::usage, fmt::format("campaign \"{}\" is being driven by another sweep ({}); "
                                              "wait for it or stop it first",
                                              label, holder.empty() ? "starting now" : "pid " + holder));
  }
  const std::string mine = std::to_string(::getpid()) + "\n";
  [[maybe_unused]] const int t = ::ftruncate(fd_, 0);
  [[maybe_unused]] const auto w = ::pwrite(fd_, mine.data(), mine.size(), 0);
}

bool controller_alive(const std::string& run_root) {
  std::ifstream in(run_root + "/" + kControllerLockFile);
  std::string pid;
  in >> pid;
  if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos || pid.size() > 9) return false;
  return ::kill(static_cast<pid_t>(std::stol(pid)), 0) == 0 || errno == EPERM;
}

ControllerLock::~ControllerLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace sweep::runner
