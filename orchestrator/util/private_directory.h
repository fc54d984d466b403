#pragma once
// A directory of this process's own, for files nobody else may see or plant: made new by mkdtemp (mode
// 0700) and removed with everything in it when the object goes out of scope.
#include <filesystem>
#include <string>

namespace sweep {

class PrivateDirectory {
 public:
  /// Makes `<parent>/<prefix>XXXXXX`; with `parent` empty, under $TMPDIR (else /tmp). Error(io) on failure.
  PrivateDirectory(const std::filesystem::path& parent, const std::string& prefix);
  /// Removes the directory and what it holds (symlinks inside are removed, never followed).
  ~PrivateDirectory();
  PrivateDirectory(const PrivateDirectory&) = delete;
  PrivateDirectory& operator=(const PrivateDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace sweep
