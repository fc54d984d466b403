// spec::experiment_schema against the loader: every map the schema closes has exactly the keys the
// loader takes (read from the loader's own "unknown key ... (valid keys: ...)" refusal), so a key added
// to the loader and not to the schema (or the other way) fails here. Literals in, literals out.
#include <nlohmann/json.hpp>

#include <set>

#include "load_helpers.h"
#include "spec/schema.h"
#include "util/strings.h"

using namespace spec_test;
using nlohmann::json;

namespace {

const json kSchema = json::parse(sweep::spec::experiment_schema());

/// The keys the loader names in its refusal of an unknown key "zzzzzzzzzzzz" in `yaml`.
std::set<std::string> loader_keys(const std::string& yaml) {
  const std::string error = load_error(yaml);
  const std::string marker = "(valid keys: ";
  const auto at = error.find(marker);
  INFO(error);
  REQUIRE(at != std::string::npos);
  const std::string list = error.substr(at + marker.size(), error.rfind(')') - at - marker.size());
  std::set<std::string> out;
  for (const std::string& key : sweep::split(list, ',')) out.insert(key.substr(key.find_first_not_of(' ')));
  return out;
}

std::set<std::string> schema_keys(const json& object) {
  CHECK(object.at("additionalProperties") == false);
  std::set<std::string> out;
  for (const auto& [key, value] : object.at("properties").items()) out.insert(key);
  return out;
}

const json& top(const std::string& key) { return kSchema.at("properties").at(key); }

}  // namespace

TEST_CASE("schema: draft-07, the same text every time, the loader's required keys") {
  CHECK(kSchema.at("$schema") == "http://json-schema.org/draft-07/schema#");
  CHECK(sweep::spec::experiment_schema() == sweep::spec::experiment_schema());
  CHECK(kSchema.at("required") == json({"name", "matrix", "workload"}));
  CHECK(load_error("name: t\n") == "x.yaml:1:1: missing required key \"matrix\"");
}

TEST_CASE("schema: every closed map has the keys the loader takes, no more, no fewer") {
  const std::string z = "zzzzzzzzzzzz";
  CHECK(schema_keys(kSchema) == loader_keys(kHead + z + ": 1\n"));
  CHECK(schema_keys(top("workload").at("anyOf")[0]) == loader_keys("name: t\nmatrix: {a: [1]}\nworkload: {command: x, " + z + ": 1}\n"));
  CHECK(schema_keys(top("workload").at("anyOf")[1].at("items")) ==
        loader_keys("name: t\nmatrix: {a: [1]}\nworkload:\n  - {command: x, " + z + ": 1}\n"));
  CHECK(schema_keys(top("resources")) == loader_keys(kHead + "resources: {" + z + ": 1}\n"));
  CHECK(schema_keys(top("metrics").at("items")) == loader_keys(kMetricsHead + "  - {" + z + ": 1}\n"));
  CHECK(schema_keys(top("success")) == loader_keys(kHead + "success: {" + z + ": 1}\n"));
  CHECK(schema_keys(top("network")) == loader_keys(kHead + "network: {" + z + ": 1}\n"));
  CHECK(schema_keys(top("references").at("items")) == loader_keys(kHead + "references: [{" + z + ": 1}]\n"));
  CHECK(schema_keys(top("repetitions").at("anyOf")[1]) == loader_keys(kHead + "repetitions: {" + z + ": 1}\n"));
  CHECK(schema_keys(top("escalate")) == loader_keys(kHead + "retries: {TIMEOUT: 1}\nescalate: {" + z + ": 1}\n"));
  CHECK(schema_keys(top("env").at("additionalProperties").at("anyOf")[1]) == loader_keys(kHead + "env: {A: {" + z + ": 1}}\n"));
  CHECK(schema_keys(top("report")) == loader_keys(kHead + "report: {" + z + ": 1}\n"));
}

TEST_CASE("schema: the tables it lists are the loader's") {
  const json& workload = top("workload").at("anyOf")[0].at("properties");
  CHECK(workload.at("launcher").at("enum") == json({"local", "srun", "mpirun", "torchrun-env"}));
  CHECK_THAT(load_error(kHead.substr(0, kHead.size() - 1) + "\n  launcher: zzzzzzzzzzzz\n"),
             Catch::Contains("(available: local, srun, mpirun, torchrun-env)"));
  CHECK(top("executor").at("enum") == json({"local", "slurm"}));
  CHECK(workload.at("bundled").at("enum") == json({"collbench", "trainbench"}));
  CHECK(top("metrics").at("items").at("properties").at("reduce").at("enum") ==
        json({"last", "first", "mean", "min", "max", "sum", "each"}));
}
