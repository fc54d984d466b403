// store/bundle_label.h: an imported campaign's label, pure.
#include <catch2/catch.hpp>

#include <set>

#include "store/bundle_label.h"
#include "util/error.h"
#include "util/campaign_label.h"
#include "util/names.h"

using namespace sweep;
using namespace sweep::store;

TEST_CASE("an imported label is LABEL@SYSTEM, then with the origin's id, never a path") {
  std::set<std::string> taken;
  const auto is_taken = [&](const std::string& l) { return taken.count(l) > 0; };
  const std::string id = "0123abcd89ef0123abcd89ef0123abcd";
  CHECK(imported_label("demo", "lab-a", id, is_taken) == "demo@lab-a");
  taken.insert("demo@lab-a");
  CHECK(imported_label("demo", "lab-a", id, is_taken) == "demo@lab-a-0123abcd");
  taken.insert("demo@lab-a-0123abcd");
  CHECK_THROWS_AS(imported_label("demo", "lab-a", id, is_taken), Error);
  CHECK(imported_label("demo", "", id, is_taken) == "demo@0123abcd");
  const std::string odd = imported_label("demo", "National Centre / GPU partition", id, is_taken);
  CHECK(odd == "demo@National_Centre___GPU_partition");
  CHECK_NOTHROW(require_campaign_label(odd));
  CHECK_NOTHROW(require_campaign_label(imported_label("demo", std::string(300, 'x'), id, is_taken)));
  CHECK_NOTHROW(require_campaign_label(imported_label("demo", "..", id, is_taken)));
  // A hostile system name: a terminal escape and a path, one harmless path component in the label.
  CHECK(imported_label("demo", "evil\x1b[2J/../../x", id, is_taken) == "demo@evil__2J_.._.._x");
}
