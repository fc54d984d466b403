#include <catch2/catch.hpp>

#include "util/error.h"
#include "util/names.h"

using namespace sweep;

TEST_CASE("labels that could escape the results directory are refused") {
  CHECK_NOTHROW(require_safe_name("nightly-2026-11-22", "label"));
  for (const char* bad : {"", "../x", "a/b", ".hidden", "-rf", "a b", "x$(y)"})
    CHECK_THROWS_AS(require_safe_name(bad, "label"), Error);
  CHECK_THROWS_AS(require_safe_name(std::string(129, 'a'), "label"), Error);
  CHECK(to_safe_name("../a b") == "_._a_b");
}
