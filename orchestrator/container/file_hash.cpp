#include "container/file_hash.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "util/error.h"
#include "util/sha256.h"

namespace sweep::container {
namespace {

constexpr std::size_t kBufferBytes = 1 << 20;

class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

FileDigest hash_descriptor(int fd, const std::string& name) {
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  // One buffer per thread, not zeroed: an image tree has many small files.
  thread_local const std::unique_ptr<char[]> buffer(new char[kBufferBytes]);
  Sha256 hash;
  FileDigest out;
  for (;;) {
    const ssize_t got = ::read(fd, buffer.get(), kBufferBytes);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw Error(ErrorKind::io, fmt::format("cannot read {}: {}", name, std::strerror(errno)));
    if (got == 0) break;
    hash.update(std::string_view(buffer.get(), static_cast<std::size_t>(got)));
    out.bytes += static_cast<std::uint64_t>(got);
  }
  out.sha256 = hash.hex_digest();
  return out;
}

FileDigest hash_regular_file(const std::string& path, std::uint64_t expected_size) {
  const Descriptor fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (fd.get() < 0) throw Error(ErrorKind::io, fmt::format("cannot open {}: {}", path, std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || static_cast<std::uint64_t>(st.st_size) != expected_size)
    throw Error(ErrorKind::io, fmt::format("{} changed while it was hashed (run again once the image is complete)", path));
  FileDigest digest = hash_descriptor(fd.get(), path);
  if (digest.bytes != expected_size)
    throw Error(ErrorKind::io, fmt::format("{} changed while it was hashed (run again once the image is complete)", path));
  return digest;
}

}  // namespace sweep::container
