// spec::fill_starter: the placeholders of `sweep init`'s starting points. Literals in, literals out.
#include <catch2/catch.hpp>

#include "spec/starters.h"

using sweep::spec::fill_starter;
using sweep::spec::StarterPlaces;

TEST_CASE("starters: the schema line, the file and the directory are filled in") {
  const std::string text = "@schema@\n# sweep plan @file@\ncommand: python3 @experiment_dir@/train.py\n";
  CHECK(fill_starter(text, StarterPlaces{"exp.yaml", "/home/me/proj", "/usr/share/sweep/schema/experiment.schema.json"}) ==
        "# yaml-language-server: $schema=/usr/share/sweep/schema/experiment.schema.json\n# sweep plan exp.yaml\n"
        "command: python3 /home/me/proj/train.py\n");
  CHECK(fill_starter(text, StarterPlaces{"a.yaml", "/p", ""}) == "# sweep plan a.yaml\ncommand: python3 /p/train.py\n");
}

TEST_CASE("starters: a directory or file name the shell would split is single-quoted") {
  const std::string text = "@file@ @experiment_dir@/train.py";
  CHECK(fill_starter(text, StarterPlaces{"my exp.yaml", "/home/me/my project", ""}) ==
        "'my exp.yaml' '/home/me/my project'/train.py");
  CHECK(fill_starter(text, StarterPlaces{"x.yaml", "/it's", ""}) == "x.yaml '/it'\\''s'/train.py");
}

TEST_CASE("starters: four starting points, python first") {
  REQUIRE(sweep::spec::starters().size() == 4);
  CHECK(sweep::spec::starters()[0].name == "python");
}
