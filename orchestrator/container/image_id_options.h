#pragma once
// The command line of `sweep-image-id` (docs/containers.md, "The image's identity"). Pure.
#include <string>
#include <vector>

namespace sweep::container {

struct ImageIdOptions {
  bool help = false;
  bool verbose = false;   // one line on stderr: the content read and the cache's answer
  std::string cache_dir;  // "" without --cache
  std::string path;
};

/// Parses the arguments after the program's name. Error(usage) naming what is wrong.
ImageIdOptions parse_image_id_options(const std::vector<std::string>& args);

/// The usage text (--help).
std::string image_id_usage();

}  // namespace sweep::container
