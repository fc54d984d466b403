#include "container/image_id_options.h"

#include <fmt/format.h>

#include "util/error.h"

namespace sweep::container {

std::string image_id_usage() {
  return "usage: sweep-image-id [--cache DIR] [--verbose] PATH\n"
         "Prints the identity of the container image at PATH, sha256:<hex>: a regular file's SHA-256 (SIF,\n"
         "SquashFS), a directory's tree hash of format 1 (a Charliecloud or Apptainer sandbox image).\n"
         "  --cache DIR  reuse the id computed before while the image is unchanged (DIR: your own, private)\n"
         "  --verbose    say on stderr how many bytes of content were read and what the cache answered\n"
         "Exit codes: 0 printed, 2 usage, 4 no image at PATH, 6 it could not be read (docs/containers.md).\n";
}

ImageIdOptions parse_image_id_options(const std::vector<std::string>& args) {
  ImageIdOptions options;
  bool have_path = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      options.help = true;
    } else if (arg == "--verbose") {
      options.verbose = true;
    } else if (arg == "--cache" || arg.starts_with("--cache=")) {
      if (arg == "--cache" && i + 1 == args.size()) throw Error(ErrorKind::usage, "--cache needs a directory");
      options.cache_dir = arg == "--cache" ? args[++i] : arg.substr(8);
      if (options.cache_dir.empty()) throw Error(ErrorKind::usage, "--cache needs a directory");
    } else if (arg.starts_with("-") && arg != "-" && !have_path) {
      throw Error(ErrorKind::usage, fmt::format("unknown option \"{}\" (valid: --cache DIR, --verbose, --help)", arg));
    } else if (have_path) {
      throw Error(ErrorKind::usage, fmt::format("one image at a time: \"{}\" after \"{}\"", arg, options.path));
    } else {
      options.path = arg;
      have_path = true;
    }
  }
  if (!have_path && !options.help) throw Error(ErrorKind::usage, "no image named (usage: sweep-image-id [--cache DIR] PATH)");
  return options;
}

}  // namespace sweep::container
