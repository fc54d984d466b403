#include <catch2/catch.hpp>

#include "util/strings.h"

using namespace sweep;

TEST_CASE("did-you-mean suggests close candidates only") {
  const std::vector<std::string> keys{"repetitions", "matrix", "metrics", "derived"};
  CHECK(closest_match("repetitons", keys) == "repetitions");
  CHECK(did_you_mean("matirx", keys) == " (did you mean \"matrix\"?)");
  CHECK(closest_match("zzzzzz", keys).empty());
  CHECK(edit_distance("kitten", "sitting") == 3);
}

TEST_CASE("split, join and trim") {
  CHECK(split("a,,b", ',') == std::vector<std::string>{"a", "", "b"});
  CHECK(join({"a", "b", "c"}, ", ") == "a, b, c");
  CHECK(trim("  x y \n") == "x y");
}
