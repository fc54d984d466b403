#include "util/private_directory.h"

#include <fmt/core.h>

#include <stdlib.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "util/error.h"

namespace sweep {

PrivateDirectory::PrivateDirectory(const std::filesystem::path& parent, const std::string& prefix) {
  std::filesystem::path where = parent;
  if (where.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    where = tmp && *tmp ? tmp : "/tmp";
  }
  std::string pattern = (where / (prefix + "XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw Error(ErrorKind::io, fmt::format("cannot make a private directory in {}: {}", where.string(), std::strerror(errno)));
  path_ = pattern;
}

PrivateDirectory::~PrivateDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace sweep
