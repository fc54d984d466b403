#include "report/script_seal.h"

#include <catch2/catch.hpp>

using namespace sweep::report;

TEST_CASE("a sealed script is recognised as sweep's until a byte of it changes") {
  const std::string script = sealed("# sweep figure t (format 2)\nset xlabel 'x'\nplot 't.dat'\n");
  CHECK(script.rfind("# sweep figure t (format 2)\n# sha256 ", 0) == 0);
  CHECK(script_on_disk(script) == ScriptOnDisk::as_generated);
  std::string edited = script;
  edited.replace(edited.find("'x'"), 3, "'y'");
  CHECK(script_on_disk(edited) == ScriptOnDisk::edited);
  CHECK(script_on_disk(script + "set grid\n") == ScriptOnDisk::edited);
  std::string first_line = script;
  first_line[2] = 'S';
  CHECK(script_on_disk(first_line) == ScriptOnDisk::edited);
}

TEST_CASE("a script with no seal (an older sweep's) counts as edited, and no script is absent") {
  CHECK(script_on_disk(std::string("# sweep figure t (format 1)\nplot 't.dat'\n")) == ScriptOnDisk::edited);
  CHECK(script_on_disk(std::string("")) == ScriptOnDisk::edited);
  CHECK(script_on_disk(std::nullopt) == ScriptOnDisk::absent);
}

TEST_CASE("an edited script is kept and the new one goes beside it") {
  CHECK(plan_script("figures/t.gp", ScriptOnDisk::absent).path == "figures/t.gp");
  CHECK_FALSE(plan_script("figures/t.gp", ScriptOnDisk::as_generated).kept);
  const ScriptPlan kept = plan_script("figures/t.gp", ScriptOnDisk::edited);
  CHECK(kept.kept);
  CHECK(kept.path == "figures/t.gp.new");
  CHECK_THAT(kept_script_message("r/figures/t.gp"),
             Catch::Contains("r/figures/t.gp was changed since sweep wrote it and is kept") &&
                 Catch::Contains("style file") && Catch::Contains("delete r/figures/t.gp"));
}
