#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <fstream>
#include <map>

#include "runner/job_secrets.h"
#include "spec/load.h"
#include "temp_dir.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::runner;

namespace {

EnvLookup lookup_in(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    const auto it = vars.find(name);
    return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
}

const std::string kExperiment = R"(name: s
matrix: {x: [1]}
env:
  REF: {from_env: SOURCE_VAR}
  HF_TOKEN: "lit-token-1"
  MARKED: {value: marked-2, secret: true}
  NOT_SECRET_KEY: {value: plain, secret: false}
  SHOWN: visible
setup:
  - export API_KEY=setup-3 OTHER=x
workload:
  command: "true"
)";

}  // namespace

TEST_CASE("setup literals become variables the job receives") {
  const auto s = secret_setup({{"export API_KEY='a b c' X=1; DB_PASSWORD=pw-1 tool", {}}, {"echo $API_KEY", {}}});
  REQUIRE(s.literals.size() == 2);
  CHECK(s.lines[0] == "export API_KEY=\"${SWEEP_SECRET_1}\" X=1; DB_PASSWORD=\"${SWEEP_SECRET_2}\" tool");
  CHECK(s.lines[1] == "echo $API_KEY");
  CHECK(s.literals[0].variable == "SWEEP_SECRET_1");
  CHECK(s.literals[0].value == "a b c");
  CHECK(s.literals[1].name == "DB_PASSWORD");
}

TEST_CASE("an experiment's secrets are resolved, masked in its stored text, and warned about") {
  const auto e = spec::load_text(kExperiment, "exp.yaml");
  const JobSecrets js = resolve_secrets(e, lookup_in({{"SOURCE_VAR", "from-env-0"}}));
  CHECK(js.env == EnvPairs{{"REF", "from-env-0"}, {"HF_TOKEN", "lit-token-1"}, {"MARKED", "marked-2"},
                           {"SWEEP_SECRET_1", "setup-3"}});
  CHECK(js.masker("a from-env-0 lit-token-1 marked-2 setup-3 plain") == "a *** *** *** *** plain");

  const std::string stored = recorded_text(e);
  for (const char* value : {"lit-token-1", "marked-2", "setup-3"}) CHECK(stored.find(value) == std::string::npos);
  CHECK(stored.find("HF_TOKEN: \"***\"") != std::string::npos);
  CHECK(stored.find("{value: \"***\", secret: true}") != std::string::npos);
  CHECK(stored.find("export API_KEY=*** OTHER=x") != std::string::npos);
  CHECK(stored.find("{from_env: SOURCE_VAR}") != std::string::npos);
  CHECK(stored.find("plain") != std::string::npos);

  const auto warnings = secret_warnings(e);
  REQUIRE(warnings.size() == 3);
  CHECK_THAT(warnings[0], Catch::StartsWith("exp.yaml:5:") && Catch::Contains("{from_env: HF_TOKEN}"));
  CHECK_THAT(warnings[2], Catch::StartsWith("exp.yaml:10:") && Catch::Contains("API_KEY"));

  // The stored text again: masked literals come from the environment under their own names.
  const auto resumed = spec::load_text(stored, "exp.yaml");
  CHECK(recorded_text(resumed) == stored);
  CHECK(secret_warnings(resumed).empty());
  CHECK_THROWS_WITH(resolve_secrets(resumed, lookup_in({{"SOURCE_VAR", "v"}})),
                    Catch::Contains("exp.yaml:5:") && Catch::Contains("stored masked"));
  const JobSecrets again = resolve_secrets(
      resumed, lookup_in({{"SOURCE_VAR", "v"}, {"HF_TOKEN", "t"}, {"MARKED", "m"}, {"API_KEY", "k"}}));
  CHECK(again.env == EnvPairs{{"REF", "v"}, {"HF_TOKEN", "t"}, {"MARKED", "m"}, {"SWEEP_SECRET_1", "k"}});
}

TEST_CASE("a missing variable and an unsafe secret file are errors at the entry") {
  TempDir dir;
  const std::string path = dir.file("exp.yaml");
  std::ofstream(path) << "name: s\nmatrix: {x: [1]}\nenv:\n  A: {from_file: tok}\nworkload:\n  command: \"true\"\n";
  std::ofstream(dir.file("tok")) << "file-secret\n";
  const auto e = spec::load_file(path);
  ::chmod(dir.file("tok").c_str(), 0600);
  CHECK(resolve_secrets(e, lookup_in({})).env == EnvPairs{{"A", "file-secret"}});
  ::chmod(dir.file("tok").c_str(), 0604);
  CHECK_THROWS_WITH(resolve_secrets(e, lookup_in({})), Catch::Contains(path + ":4:") && Catch::Contains("too open"));
  std::filesystem::remove(dir.file("tok"));
  CHECK_THROWS_WITH(resolve_secrets(e, lookup_in({})), Catch::Contains("no such file"));

  const auto r = spec::load_text("name: s\nmatrix: {x: [1]}\nenv:\n  A: {from_env: NOPE}\nworkload:\n  command: \"true\"\n", "r.yaml");
  CHECK_THROWS_WITH(resolve_secrets(r, lookup_in({})), Catch::Contains("r.yaml:4:") && Catch::Contains("NOPE is not set"));
  CHECK_THROWS_AS(spec::load_text("name: s\nmatrix: {x: [1]}\nenv:\n  A: {from_env: X, value: y}\nworkload:\n  command: \"true\"\n",
                                  "b.yaml"),
                  Error);
}
