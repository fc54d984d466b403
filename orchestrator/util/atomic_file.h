#pragma once
// Files replaced whole: written under a fresh temporary name beside the target and renamed over it, so a
// reader never sees half a file and two writers never share a temporary name (docs/reliability.md).
#include <cstdio>
#include <string>
#include <string_view>

namespace sweep {

/// A temporary file `<path>.XXXXXX` made by mkstemp in the target's directory: created with O_EXCL, so
/// it is never an existing file, a planted symlink or another writer's temporary. commit() gives it the
/// mode a new file gets under the umask and renames it over `path`; a file not committed is removed.
class AtomicFile {
 public:
  /// Error(io) when the temporary cannot be made.
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// Where to write; owned by this object until commit().
  std::FILE* stream() const { return file_; }
  const std::string& temp_path() const { return temp_; }

  /// Flushes, closes and renames over the target. Error(io) on failure (the temporary is removed).
  void commit();

 private:
  std::string path_, temp_;
  std::FILE* file_ = nullptr;
};

/// Writes `text` to `path` through an AtomicFile. Error(io) on failure.
void write_file_atomically(const std::string& path, std::string_view text);

}  // namespace sweep
