#include "util/safe_files.h"

#include <fcntl.h>
#include <fmt/core.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <vector>

#include "util/error.h"

namespace sweep {
namespace {

std::function<bool()>& resolver() {
  static std::function<bool()> r;
  return r;
}

std::string errno_text(int err) { return std::strerror(err); }

/// What a refusal adds after its reason: how to opt in, or why opting in would not help.
enum class Advice { opt_in, world, link, none };

/// By Advice, in its order.
constexpr std::array<std::string_view, 4> kAdvice{
    "; if it is yours and the group's write is an accident of your umask, chmod g-w it; if your lab shares "
    "results by group on purpose, set `shared_group: true` in the site file or pass --allow-shared (docs/site.md)",
    "; a path writable by everyone is never trusted: chmod o-w it",
    "; sweep does not follow a symbolic link here",
    "",
};

[[noreturn]] void refuse(const std::string& path, std::string_view what, const std::string& reason, Advice advice) {
  throw Error(ErrorKind::usage,
              fmt::format("refusing the {} {}: {}; sweep trusts only what you own and nobody else can write "
                          "(like git's safe.directory){}",
                          what, path, reason, kAdvice[static_cast<std::size_t>(advice)]));
}

void write_all(int fd, std::string_view text, const std::string& path) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      throw Error(ErrorKind::io, fmt::format("cannot write {}: {}", path, errno_text(err)));
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

void check_stat(const struct stat& st, const std::string& path, std::string_view what) {
  const uid_t me = ::geteuid();
  const std::string strict = untrusted_reason(st, me, false);
  if (strict.empty()) return;
  if (S_ISLNK(st.st_mode)) refuse(path, what, strict, Advice::link);
  if ((st.st_mode & S_IWOTH) != 0) refuse(path, what, strict, Advice::world);
  if (!group_sharing_allowed()) refuse(path, what, strict, Advice::opt_in);
  const std::string shared = untrusted_reason(st, me, true);
  if (!shared.empty()) refuse(path, what, shared, Advice::none);
}

}  // namespace

void set_group_sharing(std::function<bool()> r) { resolver() = std::move(r); }

bool group_sharing_allowed() {
  static std::mutex m;
  const std::lock_guard<std::mutex> lock(m);
  return resolver() ? resolver()() : false;
}

std::string untrusted_reason(const struct stat& st, uid_t me, bool group_shared) {
  if (S_ISLNK(st.st_mode)) return "it is a symbolic link";
  if ((st.st_mode & S_IWOTH) != 0) return "it is writable by everyone";
  if (!group_shared && st.st_uid != me && st.st_uid != 0)
    return fmt::format("it is owned by another user (uid {})", st.st_uid);
  if ((st.st_mode & S_IWGRP) == 0) return "";
  if (!group_shared) return "it is writable by its group";
  if (S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX) == 0)
    return "it is writable by its group without the sticky bit, so any member can rename or replace what others "
           "made in it (chmod +t it, as for /tmp)";
  return "";
}

void require_trusted(const std::string& path, std::string_view what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return;
    throw Error(ErrorKind::io, fmt::format("cannot inspect the {} {}: {}", what, path, errno_text(errno)));
  }
  check_stat(st, path, what);
}

void require_trusted_entry(const std::string& path, std::string_view what) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return;
    throw Error(ErrorKind::io, fmt::format("cannot inspect the {} {}: {}", what, path, errno_text(errno)));
  }
  check_stat(st, path, what);
}

void require_trusted_stat(const struct stat& st, const std::string& path, std::string_view what) {
  check_stat(st, path, what);
}

Error directory_exists_error(const std::string& path, std::string_view what) {
  return Error(ErrorKind::usage, fmt::format("the {} {} already exists; sweep never adopts a directory it did not create "
                                             "(choose another --label, or remove it if it is yours)",
                                             what, path));
}

void make_new_directory(const std::string& path, std::string_view what) {
  if (::mkdir(path.c_str(), 0755) == 0) return;
  const int err = errno;
  if (err == EEXIST) throw directory_exists_error(path, what);
  throw Error(ErrorKind::io, fmt::format("cannot create the {} {}: {}", what, path, errno_text(err)));
}

void make_directories(const std::string& path) {
  namespace fs = std::filesystem;
  std::vector<fs::path> missing;  // deepest first
  for (fs::path p = fs::path(path).lexically_normal(); !p.empty() && !fs::exists(fs::symlink_status(p));
       p = p.parent_path()) {
    missing.push_back(p);
    if (p == p.parent_path()) break;
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it)
    if (::mkdir(it->c_str(), 0755) != 0 && errno != EEXIST)
      throw Error(ErrorKind::io, fmt::format("cannot create the directory {}: {}", it->string(), errno_text(errno)));
}

void write_new_file(const std::string& path, std::string_view text, mode_t mode) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd < 0) throw Error(ErrorKind::io, fmt::format("cannot create {}: {}", path, errno_text(errno)));
  write_all(fd, text, path);
  if (::close(fd) != 0) throw Error(ErrorKind::io, fmt::format("cannot write {}: {}", path, errno_text(errno)));
}

int open_own_for_writing(const std::string& path, mode_t mode) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd < 0) throw Error(ErrorKind::io, fmt::format("cannot open {} for writing: {}", path, errno_text(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid() || st.st_nlink != 1) {
    ::close(fd);
    throw Error(ErrorKind::io, fmt::format("refusing to write {}: it is not your own regular file", path));
  }
  if (::ftruncate(fd, 0) != 0) {
    const int err = errno;
    ::close(fd);
    throw Error(ErrorKind::io, fmt::format("cannot empty {}: {}", path, errno_text(err)));
  }
  return fd;
}

void replace_own_file(const std::string& path, std::string_view text, mode_t mode) {
  const int fd = open_own_for_writing(path, mode);
  write_all(fd, text, path);
  if (::close(fd) != 0) throw Error(ErrorKind::io, fmt::format("cannot write {}: {}", path, errno_text(errno)));
}

namespace {

/// The one reader of read_own_file and read_input_file: `own` refuses a symlink and a file that
/// untrusted_reason() refuses.
std::string read_regular_file(const std::string& path, bool own,
                              const std::function<std::string(std::uintmax_t)>& size_problem) {
  const int fd = ::open(path.c_str(), O_RDONLY | (own ? O_NOFOLLOW : 0) | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    throw Error(ErrorKind::io, e == ELOOP && own ? "is a symlink: not followed" : e == ENOENT ? "missing" : errno_text(e));
  }
  struct stat st {};
  std::string why;
  if (::fstat(fd, &st) != 0) why = errno_text(errno);
  else if (!S_ISREG(st.st_mode)) why = "not a regular file";
  else if (const std::string r = own ? untrusted_reason(st, ::geteuid(), group_sharing_allowed()) : ""; !r.empty())
    why = "not trusted: " + r;
  else why = size_problem(static_cast<std::uintmax_t>(st.st_size));
  std::string text;
  if (why.empty()) {
    text.resize(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    while (got < text.size()) {
      const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) why = errno_text(errno);
      if (n <= 0) break;  // n == 0: it shrank since fstat, and what is there is read
      got += static_cast<std::size_t>(n);
    }
    text.resize(got);
  }
  ::close(fd);
  if (!why.empty()) throw Error(ErrorKind::io, why);
  return text;
}

std::function<std::string(std::uintmax_t)> over(std::uintmax_t limit) {
  return [limit](std::uintmax_t size) {
    return size > limit ? fmt::format("{} bytes, over the limit of {}", size, limit) : std::string();
  };
}

}  // namespace

std::string read_own_file(const std::string& path, const std::function<std::string(std::uintmax_t)>& size_problem) {
  return read_regular_file(path, true, size_problem);
}

std::string read_own_file(const std::string& path, std::uintmax_t limit) { return read_regular_file(path, true, over(limit)); }

std::string read_input_file(const std::string& path, std::uintmax_t limit) { return read_regular_file(path, false, over(limit)); }

}  // namespace sweep
