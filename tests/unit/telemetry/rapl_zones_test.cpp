#include "telemetry/rapl_zones.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "powercap_standin.h"
#include "util/error.h"

using namespace sweep::telemetry;


TEST_CASE("telemetry rapl_zones: kinds: package zones, dram sub-zones, the rest left out") {
  CHECK(zone_kind("0", "package-0") == "package");
  CHECK(zone_kind("1", "psys") == "other");
  CHECK(zone_kind("0:1", "dram") == "dram");
  CHECK(zone_kind("0:0", "core") == "");
}

TEST_CASE("telemetry rapl_zones: a powercap stand-in read across a wrap") {
  PowercapStandin sysfs;
  sysfs.zone("0", "package-0", 1'000'000'000, 999'000'000);
  sysfs.zone("0:0", "core", 1'000'000'000, 5);
  sysfs.zone("0:1", "dram", 65'532'610'987, 10'000'000);
  std::filesystem::create_directories(sysfs.dir.file("class/powercap/intel-rapl"));  // the control type: not a zone
  RaplSource rapl(sysfs.dir.path.string());
  REQUIRE(rapl.zones().size() == 2);
  CHECK(rapl.zones()[0].zone == "0");
  CHECK(rapl.zones()[0].kind == "package");
  CHECK(rapl.zones()[1].zone == "0:1");
  CHECK(rapl.zones()[1].kind == "dram");
  sysfs.set("0", 4'000'000);    // wrapped: 1 J to the top, 4 J after
  sysfs.set("0:1", 12'500'000);
  const auto joules = rapl.sample();
  REQUIRE(joules.size() == 2);
  CHECK(*joules[0] == Approx(5.0));
  CHECK(*joules[1] == Approx(2.5));
}

TEST_CASE("telemetry rapl_zones: an unreadable counter or no zone makes the source unavailable, with the reason") {
  PowercapStandin sysfs;
  CHECK_THROWS_WITH(RaplSource(sysfs.dir.path.string()), Catch::Contains("no intel-rapl zone under"));
  sysfs.zone("0", "package-0", 1000, 1);
  std::filesystem::remove(sysfs.zone_dir("0") + "/energy_uj");
  std::filesystem::create_directory(sysfs.zone_dir("0") + "/energy_uj");  // unreadable even by root
  CHECK_THROWS_WITH(RaplSource(sysfs.dir.path.string()), Catch::Contains("intel-rapl:0/energy_uj: "));
}
