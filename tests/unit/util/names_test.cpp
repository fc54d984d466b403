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

TEST_CASE("an imported campaign's LABEL@SYSTEM is a label, and still one path component") {
  CHECK_NOTHROW(require_campaign_label("demo"));
  CHECK_NOTHROW(require_campaign_label("demo@lab-a"));
  CHECK_NOTHROW(require_campaign_label("demo@lab-a-0123abcd"));
  for (const char* bad : {"@lab", "demo@", "demo@a@b", "demo@../x", "demo@a/b", "../x@lab", ".x@lab", "demo@a b"})
    CHECK_THROWS_AS(require_campaign_label(bad), Error);
  CHECK_THROWS_AS(require_campaign_label("demo@" + std::string(81, 'a')), Error);
}
