// The `telemetry` key of an experiment and of a site file: on by default, off with false, an interval
// and sources checked with file:line:column; the experiment's over the site's over the default.
#include <fstream>

#include "load_helpers.h"
#include "spec/site.h"
#include "temp_dir.h"

using namespace spec_test;
using namespace sweep;
using namespace sweep::spec;

TEST_CASE("telemetry: on by default, off with false, interval and sources read") {
  const Experiment none = load(kHead);
  CHECK(none.telemetry.enabled);
  CHECK(none.telemetry.interval_ms == 1000);
  CHECK(none.telemetry.sources == std::vector<std::string>{"proc", "rapl", "nvml"});
  CHECK(none.telemetry.where.file.empty());
  const Experiment off = load(kHead + "telemetry: false\n");
  CHECK_FALSE(off.telemetry.enabled);
  CHECK(off.telemetry.where.str() == "x.yaml:6:12");
  const Experiment set = load(kHead + "telemetry:\n  interval_ms: 250\n  sources: [nvml, proc]\n");
  CHECK(set.telemetry.enabled);
  CHECK(set.telemetry.interval_ms == 250);
  CHECK(set.telemetry.sources == std::vector<std::string>{"proc", "nvml"});  // the table's order
  CHECK(load(kHead + "telemetry: true\n").telemetry == Telemetry{});
  CHECK_FALSE(load(kHead, {{"telemetry", "false"}}).telemetry.enabled);  // --set telemetry=false
}

TEST_CASE("telemetry: errors name the place and what was expected") {
  CHECK(load_error(kHead + "telemetry:\n  interval_ms: 10\n") ==
        "x.yaml:7:16: \"telemetry.interval_ms\" must be a whole number of milliseconds from 50 to 60000, got \"10\"");
  CHECK_THAT(load_error(kHead + "telemetry:\n  interval_ms: 60001\n"), Catch::StartsWith("x.yaml:7:16: ") && Catch::Contains("from 50 to 60000"));
  CHECK_THAT(load_error(kHead + "telemetry:\n  interval_ms: 1.5\n"), Catch::Contains("whole number of milliseconds"));
  CHECK(load_error(kHead + "telemetry:\n  sources: [proc, ipmi]\n") ==
        "x.yaml:7:19: unknown telemetry source \"ipmi\" (available: proc, rapl, nvml)");
  CHECK(load_error(kHead + "telemetry:\n  sources: [proc, proc]\n") == "x.yaml:7:19: telemetry source \"proc\" is named twice");
  CHECK_THAT(load_error(kHead + "telemetry:\n  sources: []\n"), Catch::Contains("at least one source"));
  CHECK_THAT(load_error(kHead + "telemetry:\n  sources: proc\n"), Catch::StartsWith("x.yaml:7:12: ") && Catch::Contains("a list of sources"));
  CHECK(load_error(kHead + "telemetry:\n  interval: 100\n") == "x.yaml:7:3: unknown key \"interval\" (valid keys: interval_ms, sources)");
  CHECK_THAT(load_error(kHead + "telemetry: off\n"), Catch::StartsWith("x.yaml:6:12: ") && Catch::Contains("false, true, or a map"));
  CHECK_THAT(load_error(kHead + "telemetry: [proc]\n"), Catch::Contains("false, true, or a map"));
}

TEST_CASE("telemetry: the site's applies where the experiment gives none") {
  TempDir dir;
  std::ofstream(dir.file("site.yaml")) << "format: 1\ntelemetry: {interval_ms: 2000, sources: [proc]}\n";
  const Site site = load_site(dir.file("site.yaml"));
  REQUIRE(site.telemetry);
  Experiment plain = load(kHead);
  apply_site(site, plain);
  CHECK(plain.telemetry.interval_ms == 2000);
  CHECK(plain.telemetry.sources == std::vector<std::string>{"proc"});
  CHECK(plain.telemetry.where.str() == dir.file("site.yaml") + ":2:12");
  Experiment own = load(kHead + "telemetry: false\n");
  apply_site(site, own);
  CHECK_FALSE(own.telemetry.enabled);  // the experiment's wins
  const auto settings = effective_settings(site, &plain);
  const auto it = std::find_if(settings.begin(), settings.end(), [](const Setting& s) { return s.name == "telemetry"; });
  REQUIRE(it != settings.end());
  CHECK(it->value == "interval_ms=2000 sources=proc");
  CHECK(it->origin == "site " + dir.file("site.yaml") + ":2:12");
  std::ofstream(dir.file("bad.yaml")) << "format: 1\ntelemetry:\n  sources: [gpu]\n";
  CHECK_THROWS_WITH(load_site(dir.file("bad.yaml")), Catch::Contains("bad.yaml:3:13: unknown telemetry source \"gpu\""));
}

TEST_CASE("telemetry: the experiment's keys over the site's, one by one") {
  TempDir dir;
  std::ofstream(dir.file("site.yaml")) << "format: 1\ntelemetry: {interval_ms: 2000, sources: [proc]}\n";
  const Site site = load_site(dir.file("site.yaml"));
  Experiment interval_only = load(kHead + "telemetry: {interval_ms: 500}\n");
  apply_site(site, interval_only);
  CHECK(interval_only.telemetry.interval_ms == 500);
  CHECK(interval_only.telemetry.sources == std::vector<std::string>{"proc"});  // the site's, kept
  Experiment sources_only = load(kHead + "telemetry: {sources: [proc, nvml]}\n");
  apply_site(site, sources_only);
  CHECK(sources_only.telemetry.interval_ms == 2000);
  CHECK(sources_only.telemetry.sources == std::vector<std::string>{"proc", "nvml"});
  Experiment on = load(kHead + "telemetry: true\n");
  apply_site(site, on);
  CHECK(telemetry_text(on.telemetry) == "interval_ms=2000 sources=proc");
  std::ofstream(dir.file("off.yaml")) << "format: 1\ntelemetry: false\n";
  Experiment over_off = load(kHead + "telemetry: {interval_ms: 500}\n");
  apply_site(load_site(dir.file("off.yaml")), over_off);
  CHECK(telemetry_text(over_off.telemetry) == "interval_ms=500 sources=proc,rapl,nvml");
}

TEST_CASE("telemetry: the one-line text and back") {
  Telemetry t;
  CHECK(telemetry_text(t) == "interval_ms=1000 sources=proc,rapl,nvml");
  CHECK(telemetry_from_text(telemetry_text(t)) == t);
  t.enabled = false;
  CHECK(telemetry_text(t) == "off");
  CHECK(telemetry_from_text("off") == t);
  CHECK_FALSE(telemetry_from_text("interval_ms=x sources=proc"));
  CHECK_FALSE(telemetry_from_text("interval_ms=0 sources=proc"));  // a database someone sent: bounds hold
  CHECK_FALSE(telemetry_from_text("interval_ms=60001 sources=proc"));
  CHECK_FALSE(telemetry_from_text("interval_ms=100 sources=gpu"));
  CHECK_FALSE(telemetry_from_text(""));
}
