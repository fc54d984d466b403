// sweep-image-id's command line.
#include <catch2/catch.hpp>

#include "container/image_id_options.h"
#include "util/error.h"

using namespace sweep::container;

TEST_CASE("image id options: a path, --cache in both spellings, --verbose") {
  auto o = parse_image_id_options({"--cache", "/c", "--verbose", "/img"});
  CHECK(o.cache_dir == "/c");
  CHECK(o.verbose);
  CHECK(o.path == "/img");
  CHECK(parse_image_id_options({"--cache=/d", "x.sif"}).cache_dir == "/d");
  CHECK(parse_image_id_options({"--help"}).help);
}

TEST_CASE("image id options: what is refused, and why") {
  auto message = [](std::vector<std::string> args) {
    try {
      parse_image_id_options(args);
    } catch (const sweep::Error& e) {
      CHECK(e.kind() == sweep::ErrorKind::usage);
      return e.message();
    }
    return std::string("accepted");
  };
  CHECK(message({}) == "no image named (usage: sweep-image-id [--cache DIR] PATH)");
  CHECK(message({"--cache"}) == "--cache needs a directory");
  CHECK(message({"--cache=", "x"}) == "--cache needs a directory");
  CHECK(message({"--fast", "x"}) == "unknown option \"--fast\" (valid: --cache DIR, --verbose, --help)");
  CHECK(message({"a", "b"}) == "one image at a time: \"b\" after \"a\"");
}
