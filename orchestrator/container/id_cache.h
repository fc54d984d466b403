#pragma once
// The cache of image ids (`sweep-image-id --cache DIR`, docs/containers.md): an image of gigabytes is
// hashed once, not at every run. An entry maps a key to an id:
//   - a file: (device, inode, size, mtime ns, ctime ns), so any write to it, or a new file renamed in
//     its place, misses;
//   - a directory: the root's (device, inode) and the hash of every entry's metadata (tree_hash.h's
//     metadata_hash: path, type, mode, size, mtime ns, ctime ns, inode), so a changed, added or removed
//     entry misses.
// One entry per key, a file `<kind>-<sha256 of the key>` in DIR holding "sweep-image-id cache format=1",
// the key and the id; written atomically (util/atomic_file.h). An entry that does not read back as
// such (damaged, another format, another key) is ignored: the id is computed again and the entry
// replaced.
#include <sys/stat.h>

#include <optional>
#include <string>
#include <string_view>

namespace sweep::container {

/// Pure: an entry's text.
std::string cache_entry_text(std::string_view key, std::string_view id);
/// Pure: the id an entry's `text` holds for `key`, or nullopt when it is not a well-formed entry of
/// format 1 for `key` with an id "sha256:<64 hex>".
std::optional<std::string> parse_cache_entry(std::string_view text, std::string_view key);

/// Pure: why a cache directory with lstat `st` is refused for user `me`, or "" when it is used: a
/// symlink, not a directory, not owned by `me`, or writable by group or others.
std::string cache_dir_refusal(const struct stat& st, unsigned me);

class IdCache {
 public:
  /// Opens `dir`, creating it (mode 0700) when absent (its parent must exist). Error(usage) naming
  /// `dir` when cache_dir_refusal refuses it; Error(io) when it cannot be made or inspected.
  /// (sweep-image-id warns of either and computes the id without a cache.)
  explicit IdCache(std::string dir);

  /// The id stored for `key` of `kind` ("file" or "tree"), or nullopt.
  std::optional<std::string> lookup(std::string_view kind, std::string_view key) const;
  /// Stores `id` for `key`. Returns "" or why it could not (the id is still right; the caller warns).
  std::string store(std::string_view kind, std::string_view key, std::string_view id) const;

 private:
  std::string entry_path(std::string_view kind, std::string_view key) const;
  std::string dir_;
};

}  // namespace sweep::container
