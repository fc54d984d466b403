// check_text and read_spec_file (spec/yaml_read.h): byte-level checks before YAML parsing.
#include <fmt/core.h>

#include "spec/yaml_read.h"
#include "util/safe_files.h"

namespace sweep::spec {
namespace {

/// Length of the valid UTF-8 sequence starting at text[i], or 0 when it is invalid (overlong forms,
/// surrogates and code points above U+10FFFF included).
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b = byte(i);
  if (b < 0x80) return 1;
  std::size_t len = 0;
  unsigned min_second = 0x80, max_second = 0xBF;
  if (b >= 0xC2 && b <= 0xDF)
    len = 2;
  else if (b >= 0xE0 && b <= 0xEF)
    len = 3, min_second = b == 0xE0 ? 0xA0 : 0x80, max_second = b == 0xED ? 0x9F : 0xBF;
  else if (b >= 0xF0 && b <= 0xF4)
    len = 4, min_second = b == 0xF0 ? 0x90 : 0x80, max_second = b == 0xF4 ? 0x8F : 0xBF;
  else
    return 0;
  if (i + len > text.size()) return 0;
  if (byte(i + 1) < min_second || byte(i + 1) > max_second) return 0;
  for (std::size_t k = 2; k < len; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return len;
}

/// 1-based line and byte column of `offset` (yaml-cpp also counts columns in bytes).
SourceLocation position(std::string_view text, std::size_t offset, const std::string& file) {
  int line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i)
    if (text[i] == '\n') ++line, line_start = i + 1;
  return SourceLocation{file, line, static_cast<int>(offset - line_start) + 1};
}

}  // namespace

std::string read_spec_file(const std::string& path, std::string_view what) {
  try {
    return read_input_file(path, kMaxExperimentBytes);
  } catch (const Error& e) {
    throw Error(ErrorKind::io, fmt::format("cannot read {} \"{}\": {} (a regular file of at most 16 MiB is expected)", what,
                                           path, e.what()));
  }
}

void check_text(std::string_view text, const std::string& file) {
  if (text.size() > kMaxExperimentBytes)
    fail_at(SourceLocation{file},
            fmt::format("the file is {} bytes; experiment files are limited to 16 MiB", text.size()));
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '\0') fail_at(position(text, i, file), "the file contains a NUL byte; is it a text file?");
    const std::size_t len = utf8_length(text, i);
    if (len == 0)
      fail_at(position(text, i, file), fmt::format("invalid UTF-8 (byte 0x{:02X}); experiment files must be UTF-8 text",
                                                   static_cast<unsigned char>(text[i])));
    i += len;
  }
}

}  // namespace sweep::spec
