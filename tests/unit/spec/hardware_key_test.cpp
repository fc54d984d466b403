// The hardware key (spec/hardware_key.h): its default, --hardware-key's list, and the site file's
// `hardware_key:` validated with file:line:column and shown by `sweep site` (spec/site_settings.cpp).
#include <catch2/catch.hpp>

#include <fstream>

#include "spec/hardware_key.h"
#include "spec/site.h"
#include "temp_dir.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::spec;

namespace {

Site site_of(const TempDir& dir, const std::string& text) {
  std::ofstream(dir.file("site.yaml")) << "format: 1\n" << text;
  return load_site(dir.file("site.yaml"));
}

std::string site_error(const std::string& text) {
  TempDir dir;
  try {
    site_of(dir, text);
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::invalid_experiment);
    const std::string what = e.what();
    return what.substr(what.find("site.yaml:"));
  }
  return "no error";
}

std::string usage_error(const std::vector<std::string>& items) {
  try {
    parse_hardware_key(items, "--hardware-key");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::usage);
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("hardware key: the default is the GPU's model and count and the CPU model") {
  CHECK(default_hardware_key() == std::vector<std::string>{"gpu.model", "gpu.count", "cpu_model"});
  CHECK(hardware_key_in_force({}, {}) == default_hardware_key());
  CHECK(hardware_key_in_force({}, {"gpu.model"}) == std::vector<std::string>{"gpu.model"});
  CHECK(hardware_key_in_force({"nccl.version"}, {"gpu.model"}) == std::vector<std::string>{"nccl.version"});
  CHECK_THROWS_AS(hardware_key_in_force({"a b"}, {"gpu.model"}), Error);
}

TEST_CASE("hardware key: --hardware-key takes provenance key names, trimmed, repeats dropped") {
  CHECK(parse_hardware_key({"gpu.model", " nccl.version ", "gpu.model"}, "--hardware-key") ==
        std::vector<std::string>{"gpu.model", "nccl.version"});
  CHECK(parse_hardware_key({"gpu.model,env.NCCL_ALGO"}, "--hardware-key") ==
        std::vector<std::string>{"gpu.model", "env.NCCL_ALGO"});
  CHECK_THAT(usage_error({"gpu model"}), Catch::Contains("--hardware-key \"gpu model\": expected provenance key names"));
  CHECK_THAT(usage_error({"../etc"}), Catch::Contains("\"../etc\""));
  CHECK_THAT(usage_error({""}), Catch::Contains("--hardware-key \"\""));
  CHECK_THAT(usage_error({}), Catch::Contains("at least one"));
  CHECK(is_provenance_key_name("campaign.system"));
  CHECK_FALSE(is_provenance_key_name(std::string(129, 'a')));
  CHECK_FALSE(is_provenance_key_name("-x"));
}

TEST_CASE("hardware key: the site file's hardware_key, validated with its place, shown by sweep site") {
  TempDir dir;
  const Site site = site_of(dir, "hardware_key: [gpu.model, nccl.version]\n");
  CHECK(site.hardware_key == std::vector<std::string>{"gpu.model", "nccl.version"});
  CHECK(site.hardware_key_where.str() == dir.file("site.yaml") + ":2:15");
  bool shown = false;
  for (const Setting& s : effective_settings(site, nullptr))
    if (s.name == "hardware_key") {
      shown = true;
      CHECK(s.value == "gpu.model, nccl.version");
      CHECK(s.origin == "site " + dir.file("site.yaml") + ":2:15");
    }
  CHECK(shown);
  // Without the key: the default, said so.
  for (const Setting& s : effective_settings(site_of(dir, ""), nullptr))
    if (s.name == "hardware_key") CHECK((s.value == "gpu.model, gpu.count, cpu_model" && s.origin == "default"));

  CHECK_THAT(site_error("hardware_key: [gpu.model, \"gpu model\"]\n"),
             Catch::StartsWith("site.yaml:2:27:") && Catch::Contains("provenance key name"));
  CHECK_THAT(site_error("hardware_key: gpu.model\n"), Catch::StartsWith("site.yaml:2:15:") && Catch::Contains("list"));
  CHECK_THAT(site_error("hardware_key: []\n"), Catch::StartsWith("site.yaml:2:15:") && Catch::Contains("list of provenance key names"));
  CHECK_THAT(site_error("hardware_keys: [gpu.model]\n"), Catch::Contains("hardware_key"));
}
