#include <catch2/catch.hpp>

#include <string>

#include "util/campaign_label.h"
#include "util/error.h"

using namespace sweep;

TEST_CASE("an imported campaign's LABEL@SYSTEM is a label, and still one path component") {
  CHECK_NOTHROW(require_campaign_label("demo"));
  CHECK_NOTHROW(require_campaign_label("demo@lab-a"));
  CHECK_NOTHROW(require_campaign_label("demo@lab-a-0123abcd"));
  for (const char* bad : {"@lab", "demo@", "demo@a@b", "demo@../x", "demo@..", "demo@a/b", "../x@lab", ".x@lab",
                          "demo@a b", "a/b", ""})
    CHECK_THROWS_AS(require_campaign_label(bad), Error);
  CHECK_THROWS_AS(require_campaign_label("demo@" + std::string(81, 'a')), Error);
}
