#include "telemetry/log_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/error.h"

namespace sweep::telemetry {

LogFile::LogFile(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    throw Error(ErrorKind::io, path + ": cannot create the telemetry file: " + std::strerror(errno) +
                                   (errno == EEXIST ? " (something is already there; it is never reused)" : ""));
  }
}

LogFile::~LogFile() {
  if (fd_ >= 0) ::close(fd_);
}

void LogFile::append(std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd_, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error(ErrorKind::io, path_ + ": cannot write: " + std::strerror(errno));
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace sweep::telemetry
