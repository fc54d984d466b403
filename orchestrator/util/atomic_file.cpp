#include "util/atomic_file.h"

#include <fmt/core.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"

namespace sweep {

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), temp_(path_ + ".XXXXXX") {
  const int fd = ::mkstemp(temp_.data());
  if (fd < 0) throw Error(ErrorKind::io, fmt::format("cannot create a temporary file beside {}: {}", path_, std::strerror(errno)));
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    ::close(fd);
    ::unlink(temp_.c_str());
    throw Error(ErrorKind::io, fmt::format("cannot write {}", temp_));
  }
}

AtomicFile::~AtomicFile() {
  if (file_) std::fclose(file_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

void AtomicFile::commit() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  const bool written = std::fflush(file_) == 0 && ::fchmod(::fileno(file_), 0666 & ~mask) == 0;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!written || !closed) throw Error(ErrorKind::io, fmt::format("cannot write {}", temp_));
  if (::rename(temp_.c_str(), path_.c_str()) != 0)
    throw Error(ErrorKind::io, fmt::format("cannot rename {} to {}: {}", temp_, path_, std::strerror(errno)));
  temp_.clear();
}

void write_file_atomically(const std::string& path, std::string_view text) {
  AtomicFile file(path);
  if (!text.empty() && std::fwrite(text.data(), 1, text.size(), file.stream()) != text.size())
    throw Error(ErrorKind::io, fmt::format("cannot write {}", file.temp_path()));
  file.commit();
}

}  // namespace sweep
