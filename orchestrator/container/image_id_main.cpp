// sweep-image-id: prints a container image's identity, sha256:<hex> (docs/containers.md, "The image's
// identity"). Exit codes: those of util/exit_codes.h (0 printed, 2 usage, 4 no image, 6 io). A cache
// directory it refuses or cannot make is a warning on stderr: the id is computed without the cache.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "container/id_cache.h"
#include "container/image_id.h"
#include "container/image_id_options.h"
#include "util/error.h"
#include "util/exit_codes.h"

namespace {

constexpr const char* kCacheNames[] = {"off", "hit", "miss"};

int run(const sweep::container::ImageIdOptions& options) {
  using namespace sweep::container;
  if (options.help) {
    std::fputs(image_id_usage().c_str(), stdout);
    return 0;
  }
  std::unique_ptr<IdCache> cache;
  if (!options.cache_dir.empty()) {
    try {
      cache = std::make_unique<IdCache>(options.cache_dir);
    } catch (const sweep::Error& e) {  // the id does not need the cache
      std::fprintf(stderr, "sweep-image-id: warning: not using the cache: %s\n", e.message().c_str());
    }
  }
  const ImageId id = identify_image(options.path, cache.get());
  if (!id.cache_warning.empty()) std::fprintf(stderr, "sweep-image-id: warning: not cached: %s\n", id.cache_warning.c_str());
  if (options.verbose)
    std::fprintf(stderr, "sweep-image-id: content read: %llu bytes (cache: %s)\n",
                 static_cast<unsigned long long>(id.content_bytes), kCacheNames[static_cast<int>(id.cache)]);
  std::printf("%s\n", id.id.c_str());
  return std::fflush(stdout) == 0 ? 0 : static_cast<int>(sweep::ExitCode::io);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(sweep::container::parse_image_id_options(std::vector<std::string>(argv + 1, argv + argc)));
  } catch (const sweep::Error& e) {
    std::fprintf(stderr, "sweep-image-id: %s\n", e.message().c_str());
    return sweep::exit_code_for(e.kind());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sweep-image-id: internal error: %s\n", e.what());
    return static_cast<int>(sweep::ExitCode::internal);
  }
}
