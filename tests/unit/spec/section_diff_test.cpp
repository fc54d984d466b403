// spec/section_diff.h: which top-level sections of two experiment texts differ (sweep reparse --from).
#include <catch2/catch.hpp>

#include "spec/section_diff.h"
#include "util/error.h"

using sweep::spec::differing_sections;

TEST_CASE("differing_sections ignores comments and layout and names what changed") {
  const std::string stored = "name: x\n# a comment\ncommand: python3 train.py\nmetrics:\n  - {name: t, regex: 'a'}\n";
  const std::string same = "name: x\ncommand:   python3 train.py   # why\nmetrics:\n  - name: t\n    regex: 'a'\n";
  CHECK(differing_sections(stored, same, "new.yaml").empty());
  const std::string metrics = "name: x\ncommand: python3 train.py\nmetrics:\n  - {name: t, regex: 'b'}\n";
  CHECK(differing_sections(stored, metrics, "new.yaml") == std::vector<std::string>{"metrics"});
  const std::string more = "name: y\ncommand: python3 train.py\nmetrics: []\nrepetitions: 3\n";
  CHECK(differing_sections(stored, more, "new.yaml") == std::vector<std::string>{"name", "metrics", "repetitions"});
}

TEST_CASE("differing_sections refuses a text that is not a mapping, naming the file") {
  try {
    differing_sections("name: x\n", "- a\n", "new.yaml");
    FAIL("no error");
  } catch (const sweep::Error& e) {
    CHECK(std::string(e.what()).find("new.yaml") != std::string::npos);
  }
}
