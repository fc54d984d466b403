#include "container/image_walk.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "util/error.h"

namespace sweep::container {
namespace {

struct TypeRow {
  mode_t format;
  EntryType type;
};
constexpr std::array<TypeRow, 7> kTypes{{{S_IFREG, EntryType::file},
                                         {S_IFDIR, EntryType::directory},
                                         {S_IFLNK, EntryType::symlink},
                                         {S_IFIFO, EntryType::fifo},
                                         {S_IFSOCK, EntryType::socket},
                                         {S_IFCHR, EntryType::char_device},
                                         {S_IFBLK, EntryType::block_device}}};

EntryType type_of(mode_t mode, const std::string& path) {
  for (const auto& row : kTypes)
    if ((mode & S_IFMT) == row.format) return row.type;
  throw Error(ErrorKind::io, fmt::format("{}: an entry of unknown type {:o}", path, mode & S_IFMT));
}

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw Error(ErrorKind::io, fmt::format("cannot {} {}: {}", what, path, std::strerror(errno)));
}

std::string link_target(int dir_fd, const char* name, const std::string& path, off_t size) {
  std::string target(static_cast<std::size_t>(size > 0 ? size : 255) + 1, '\0');
  const ssize_t n = ::readlinkat(dir_fd, name, target.data(), target.size());
  if (n < 0) fail("read the symlink", path);
  if (static_cast<std::size_t>(n) == target.size())
    throw Error(ErrorKind::io, fmt::format("{} changed while it was read", path));
  target.resize(static_cast<std::size_t>(n));
  return target;
}

struct Walk {
  std::string root;
  dev_t device;
  std::vector<TreeEntry> entries;

  /// Lists the directory open as `dir_fd` (taken over and closed), whose relative path is `prefix`.
  void directory(int dir_fd, const std::string& prefix) {
    const std::unique_ptr<DIR, int (*)(DIR*)> dir(::fdopendir(dir_fd), &::closedir);
    if (!dir) {
      ::close(dir_fd);
      fail("read the directory", root + "/" + prefix);
    }
    std::vector<std::string> subdirectories;
    errno = 0;
    while (const dirent* d = ::readdir(dir.get())) {
      const std::string name = d->d_name;
      if (name == "." || name == "..") continue;
      const std::string rel = prefix.empty() ? name : prefix + "/" + name;
      if (entry(::dirfd(dir.get()), name, rel)) subdirectories.push_back(name);
      errno = 0;
    }
    if (errno != 0) fail("read the directory", root + "/" + prefix);
    // Entered after the listing, one open directory per level of depth.
    for (const auto& name : subdirectories) descend(::dirfd(dir.get()), name, prefix.empty() ? name : prefix + "/" + name);
  }

  /// Records one entry; true when it is a directory to enter.
  bool entry(int dir_fd, const std::string& name, const std::string& rel) {
    struct stat st {};
    const std::string path = root + "/" + rel;
    if (::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) fail("inspect", path);
    TreeEntry e;
    e.type = type_of(st.st_mode, path);
    e.mode = st.st_mode & 07777;
    e.path = rel;
    e.inode = st.st_ino;
    e.mtime_ns = std::int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec;
    e.ctime_ns = std::int64_t{st.st_ctim.tv_sec} * 1000000000 + st.st_ctim.tv_nsec;
    if (e.type == EntryType::file) e.size = static_cast<std::uint64_t>(st.st_size);
    if (e.type == EntryType::symlink) e.target = link_target(dir_fd, name.c_str(), path, st.st_size);
    entries.push_back(std::move(e));
    return S_ISDIR(st.st_mode) && st.st_dev == device;
  }

  void descend(int parent_fd, const std::string& name, const std::string& rel) {
    const int fd = ::openat(parent_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) fail("open the directory", root + "/" + rel);
    directory(fd, rel);
  }
};

}  // namespace

std::vector<TreeEntry> walk_tree(const std::string& root) {
  const int fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail("open the directory", root);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    fail("inspect", root);
  }
  Walk walk{root, st.st_dev, {}};
  walk.directory(fd, "");
  sort_entries(walk.entries);
  return std::move(walk.entries);
}

}  // namespace sweep::container
