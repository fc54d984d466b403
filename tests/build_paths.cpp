#include "build_paths.h"

#include <cstring>
#include <map>
#include <stdexcept>

namespace sweep_test {

const std::string& build_path(const char* name) {
  static const std::map<std::string, std::string> paths = [] {
    std::map<std::string, std::string> out;
    for (const char* const* entry = kBuildPaths; *entry != nullptr; ++entry) {
      const char* eq = std::strchr(*entry, '=');
      if (eq != nullptr) out.emplace(std::string(*entry, eq), std::string(eq + 1));
    }
    return out;
  }();
  const auto found = paths.find(name);
  if (found == paths.end())
    throw std::logic_error(std::string("this test program was not given the path ") + name +
                           ": add it to its sweep_test_paths call (tests/CMakeLists.txt)");
  return found->second;
}

}  // namespace sweep_test
