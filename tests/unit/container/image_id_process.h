#pragma once
// Runs sweep-image-id and the shell that builds the test's trees (real processes).
#include <cstdio>
#include <string>

#include <sys/wait.h>

namespace sweep::container::testing {

inline const std::string kImageId = SWEEP_IMAGE_ID_BIN;
inline const std::string kReference = TREE_HASH_REFERENCE;

struct Ran {
  int code = -1;
  std::string out;  // stdout and stderr together
};

/// Runs `command` under /bin/sh; its exit code and output.
inline Ran sh(const std::string& command) {
  Ran ran;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return ran;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) ran.out.append(buffer, n);
  const int status = ::pclose(pipe);
  ran.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return ran;
}

/// `'text'` for /bin/sh.
inline std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// The id sweep-image-id prints for `path` (with `options` before it), its last line without "\n";
/// "exit N: output" when it fails.
inline std::string image_id(const std::string& path, const std::string& options = "") {
  const Ran ran = sh(kImageId + " " + options + " " + quoted(path) + " 2>/dev/null");
  if (ran.code != 0) return "exit " + std::to_string(ran.code) + ": " + ran.out;
  return ran.out.substr(0, ran.out.find('\n'));
}

/// The Python reference's tree hash of `root`.
inline std::string reference_hash(const std::string& root) {
  const Ran ran = sh("python3 " + kReference + " " + quoted(root));
  return ran.out.substr(0, ran.out.find('\n'));
}

}  // namespace sweep::container::testing
