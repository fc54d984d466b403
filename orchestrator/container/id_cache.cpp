#include "container/id_cache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "util/atomic_file.h"
#include "util/error.h"
#include "util/safe_files.h"
#include "util/sha256.h"

namespace sweep::container {
namespace {

constexpr std::string_view kHeader = "sweep-image-id cache format=1\n";
constexpr std::size_t kMaxEntryBytes = 64 * 1024;

bool is_id(std::string_view id) {
  if (!id.starts_with("sha256:") || id.size() != 7 + 64) return false;
  for (char c : id.substr(7))
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace

std::string cache_entry_text(std::string_view key, std::string_view id) {
  return fmt::format("{}key={}\nid={}\n", kHeader, key, id);
}

std::optional<std::string> parse_cache_entry(std::string_view text, std::string_view key) {
  if (!text.starts_with(kHeader)) return std::nullopt;
  text.remove_prefix(kHeader.size());
  const std::string want_key = fmt::format("key={}\n", key);
  if (!text.starts_with(want_key)) return std::nullopt;
  text.remove_prefix(want_key.size());
  if (!text.starts_with("id=") || !text.ends_with("\n")) return std::nullopt;
  const std::string_view id = text.substr(3, text.size() - 4);
  if (!is_id(id)) return std::nullopt;
  return std::string(id);
}

std::string cache_dir_refusal(const struct stat& st, unsigned me) {
  if (S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode)) {
    if (std::string why = untrusted_reason(st, me, false); !why.empty()) return why;
  } else {
    return "it is not a directory";
  }
  // untrusted_reason trusts root's own directories too; the cache is the user's alone.
  if (st.st_uid != me) return fmt::format("it is owned by another user (uid {})", st.st_uid);
  return "";
}

IdCache::IdCache(std::string dir) : dir_(std::move(dir)) {
  struct stat st {};
  if (::lstat(dir_.c_str(), &st) != 0) {
    if (errno != ENOENT) throw Error(ErrorKind::io, fmt::format("cannot inspect the cache directory {}: {}", dir_, std::strerror(errno)));
    if (::mkdir(dir_.c_str(), 0700) != 0 && errno != EEXIST)
      throw Error(ErrorKind::io, fmt::format("cannot make the cache directory {}: {}", dir_, std::strerror(errno)));
    if (::lstat(dir_.c_str(), &st) != 0)
      throw Error(ErrorKind::io, fmt::format("cannot inspect the cache directory {}: {}", dir_, std::strerror(errno)));
  }
  const std::string why = cache_dir_refusal(st, ::geteuid());
  if (!why.empty())
    throw Error(ErrorKind::usage, fmt::format("refusing the cache directory {}: {} (it must be your own directory, "
                                              "writable by you alone, not a symbolic link)", dir_, why));
}

std::string IdCache::entry_path(std::string_view kind, std::string_view key) const {
  return fmt::format("{}/{}-{}", dir_, kind, sha256_hex(key));
}

std::optional<std::string> IdCache::lookup(std::string_view kind, std::string_view key) const {
  try {  // missing, a symlink, too big, not trusted: no entry
    return parse_cache_entry(read_own_file(entry_path(kind, key), kMaxEntryBytes), key);
  } catch (const Error&) {
    return std::nullopt;
  }
}

std::string IdCache::store(std::string_view kind, std::string_view key, std::string_view id) const {
  try {
    write_file_atomically(entry_path(kind, key), cache_entry_text(key, id));
    return "";
  } catch (const Error& e) {
    return e.message();
  }
}

}  // namespace sweep::container
