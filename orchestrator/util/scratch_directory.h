#pragma once
// A private scratch directory that a stopped process does not leave behind (issue 47: a killed
// `sweep import` left its copy of the bundle in $TMPDIR).
//
// Contract:
// - it is made by mkdtemp (mode 0700) as `<parent>/<prefix><pid>-XXXXXX`, and removed with what it holds
//   when the object goes out of scope, as PrivateDirectory is;
// - while it exists, SIGINT, SIGTERM and SIGHUP remove the files named at construction and the directory
//   (unlink and rmdir: async-signal-safe), then end the process as the signal would have; the handlers
//   that were there before are restored when the object goes;
// - one left by a process that could not clean up (SIGKILL, a power cut) is removed by the next
//   ScratchDirectory of the same parent and prefix: a directory of this user (never a symlink) whose pid
//   is of no live process. One whose pid a live process holds now is left alone.
// At most one exists at a time in a process (a second is Error(internal)).
#include <filesystem>
#include <string>
#include <vector>

namespace sweep {

class ScratchDirectory {
 public:
  /// With `parent` empty, under $TMPDIR (else /tmp). `files` are the names the signal handler removes
  /// (at most 8, each under 64 bytes). Error(io) when the directory cannot be made.
  ScratchDirectory(const std::filesystem::path& parent, const std::string& prefix, const std::vector<std::string>& files);
  ~ScratchDirectory();
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

/// Removes `<parent>/<prefix><pid>-*` directories of this user whose pid is of no live process; returns
/// how many. What it cannot remove is left (the next call tries again).
int remove_stale_scratch(const std::filesystem::path& parent, const std::string& prefix);

}  // namespace sweep
