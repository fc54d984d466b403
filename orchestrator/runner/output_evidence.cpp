#include "runner/output_evidence.h"

#include <algorithm>
#include <fstream>
#include <vector>

#include "util/failure_classes.h"
#include "util/output_tail.h"

namespace sweep::runner {
namespace {

/// The last kTailReadBytes of `path`; "" when it cannot be read.
std::string read_end(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size <= 0) return "";
  const std::streamoff take = std::min<std::streamoff>(size, static_cast<std::streamoff>(kTailReadBytes));
  in.seekg(size - take);
  std::string text(static_cast<std::size_t>(take), '\0');
  in.read(text.data(), take);
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

}  // namespace

std::string with_output_tail(std::string reason, std::string_view failure_class, const std::string& run_dir) {
  std::vector<const char*> files;
  if (failure_class == failure::kSetup) files.push_back("setup.log");
  // The runtime's own output when the container check failed (runner/container_check.h).
  for (const std::string_view c : {failure::kContainerRuntime, failure::kContainerImage, failure::kContainerGpu, failure::kContainer})
    if (failure_class == c) files.push_back("container_check.log");
  files.insert(files.end(), {"stderr", "stdout"});
  for (const char* file : files)
    if (std::string tail = output_tail(read_end(run_dir + "/" + file)); !tail.empty())
      return with_tail(reason, file, tail);
  return reason;
}

}  // namespace sweep::runner
