#pragma once
// Helpers for tests that run real processes: a temporary directory, scripts, and process probes.
#include <sys/types.h>

#include <chrono>
#include <string>

namespace sweep::exec::test {

/// A fresh directory under /tmp (mkdtemp), removed with its contents on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  /// path() + "/" + name
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

/// Writes an executable `#!/bin/sh` script with `body` at `path`; returns `path`.
std::string write_script(const std::string& path, const std::string& body);
/// The whole file, or "" when it does not exist.
std::string read_file(const std::string& path);
/// Waits up to `limit` for `path` to exist and be non-empty; returns its content ("" on timeout).
std::string wait_for_file(const std::string& path, std::chrono::milliseconds limit);
/// True when no live process has this pid (it does not exist or is a zombie).
bool process_gone(pid_t pid);
/// Waits up to `limit` for process_gone(pid).
bool wait_gone(pid_t pid, std::chrono::milliseconds limit);

}  // namespace sweep::exec::test
