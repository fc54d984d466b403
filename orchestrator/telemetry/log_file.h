#pragma once
// The telemetry file on disk: created new, never through a planted symlink or over an existing file
// (O_CREAT|O_EXCL|O_NOFOLLOW, as util/safe_files.h's write_new_file), and written record block by
// record block with write(2), so that each sample is in the file when append returns (a killed
// sampler leaves every sample it took; docs/telemetry.md).
#include <string>
#include <string_view>

namespace sweep::telemetry {

class LogFile {
 public:
  /// Creates `path` (mode 0644 & ~umask). Error(io) naming it when anything is already there.
  explicit LogFile(const std::string& path);
  ~LogFile();
  LogFile(const LogFile&) = delete;
  LogFile& operator=(const LogFile&) = delete;

  /// Writes `text` whole. Error(io) naming the file when the write fails (a full disk).
  void append(std::string_view text);

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace sweep::telemetry
