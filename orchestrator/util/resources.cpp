#include "util/resources.h"

#include <cstdlib>
#include <filesystem>

namespace sweep {

std::string executable_dir() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : self.parent_path().string();
}

std::string resource_dir(const char* env, std::string_view installed, const std::string& built) {
  if (const char* value = std::getenv(env); value && *value) return value;
  if (const std::string dir = executable_dir(); !dir.empty()) {
    std::error_code ec;
    const std::filesystem::path candidate = (std::filesystem::path(dir) / installed).lexically_normal();
    if (std::filesystem::is_directory(candidate, ec)) return candidate.string();
  }
  return built;
}

}  // namespace sweep
