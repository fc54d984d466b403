#include "util/names.h"

#include <fmt/core.h>

#include "util/error.h"

namespace sweep {
namespace {
bool safe_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == '-' || c == '+';
}
}  // namespace

void require_safe_name(std::string_view name, std::string_view what) {
  if (name.empty() || name.size() > 128)
    throw Error(ErrorKind::usage, fmt::format("{} must be 1 to 128 characters long, got {}", what, name.size()));
  if (name.front() == '.' || name.front() == '-')
    throw Error(ErrorKind::usage, fmt::format("{} \"{}\" must not start with '.' or '-'", what, name));
  for (char c : name)
    if (!safe_char(c))
      throw Error(ErrorKind::usage,
                  fmt::format("{} \"{}\" may only contain letters, digits and . _ + - (found {:?})", what, name, c));
}

std::string to_safe_name(std::string_view text) {
  std::string out;
  for (char c : text) out.push_back(safe_char(c) ? c : '_');
  if (out.empty()) out.push_back('_');
  if (out.front() == '.' || out.front() == '-') out.front() = '_';
  if (out.size() > 128) out.resize(128);
  return out;
}

}  // namespace sweep
