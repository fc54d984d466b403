#include <catch2/catch.hpp>

#include <filesystem>

#include "e2e/harness.h"

using namespace e2e;

TEST_CASE("an invalid experiment exits 3 with file:line:column and writes nothing") {
  Sandbox box;
  box.write("bad.yaml", "name: bad\nmatrix:\n  batch: [1, 2]\nrepetitons: 3\nworkload:\n  command: echo {{batch}}\n");
  for (const char* verb : {"run", "plan"}) {
    const auto r = box.sweep({verb, "bad.yaml"});
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains("bad.yaml:4:1:") && Catch::Contains("did you mean \"repetitions\"?"));
  }
  CHECK_FALSE(std::filesystem::exists(box.path("results")));
}

TEST_CASE("a command using an undefined parameter is caught before anything runs") {
  Sandbox box;
  box.write("undef.yaml", "name: undef\nmatrix:\n  batch: [1, 2]\nworkload:\n  command: echo {{btach}}\n");
  const auto r = box.sweep({"run", "undef.yaml"});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("undef.yaml:5:") && Catch::Contains("btach") &&
                        Catch::Contains("did you mean \"batch\"?"));
  CHECK_FALSE(std::filesystem::exists(box.path("results")));
}

TEST_CASE("usage errors exit 2 and unknown campaigns exit 4") {
  Sandbox box;
  CHECK(box.sweep({"frobnicate"}).exit_code == 2);
  CHECK(box.sweep({"run"}).exit_code == 2);
  CHECK(box.sweep({"plan", "x.yaml", "--format", "xml"}).exit_code == 2);
  const auto missing = box.sweep({"plan", "missing.yaml"});
  CHECK(missing.exit_code == 4);
  CHECK_THAT(missing.err, Catch::Contains("missing.yaml"));
  box.write("ok.yaml", "name: ok\nmatrix:\n  x: [1]\nworkload:\n  command: echo {{x}}\n");
  REQUIRE(box.sweep({"run", "ok.yaml", "--label", "ok"}).exit_code == 0);
  CHECK(box.sweep({"report", "nope"}).exit_code == 4);
  CHECK(box.sweep({"run", "ok.yaml", "--label", "../escape"}).exit_code == 2);
}
