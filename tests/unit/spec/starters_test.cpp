// spec::fill_starter: the placeholders of `sweep init`'s starting points. Literals in, literals out.
#include <catch2/catch.hpp>

#include "spec/starters.h"

using sweep::spec::fill_starter;
using sweep::spec::StarterPlaces;

TEST_CASE("starters: the schema line and the file are filled in") {
  const std::string text = "@schema@\n# sweep plan @file@\ncommand: python3 train.py\n";
  CHECK(fill_starter(text, StarterPlaces{"exp.yaml", "/usr/share/sweep/schema/experiment.schema.json"}) ==
        "# yaml-language-server: $schema=/usr/share/sweep/schema/experiment.schema.json\n# sweep plan exp.yaml\n"
        "command: python3 train.py\n");
  CHECK(fill_starter(text, StarterPlaces{"a.yaml", ""}) == "# sweep plan a.yaml\ncommand: python3 train.py\n");
}

TEST_CASE("starters: a file name the shell would split is single-quoted") {
  CHECK(fill_starter("sweep plan @file@", StarterPlaces{"my exp.yaml", ""}) == "sweep plan 'my exp.yaml'");
  CHECK(fill_starter("sweep plan @file@", StarterPlaces{"it's.yaml", ""}) == "sweep plan 'it'\\''s.yaml'");
}

TEST_CASE("starters: four starting points, python first") {
  REQUIRE(sweep::spec::starters().size() == 4);
  CHECK(sweep::spec::starters()[0].name == "python");
}
