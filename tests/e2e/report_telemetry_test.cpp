// `sweep report` of a campaign whose runs have telemetry (tests/e2e/telemetry_scenario.h): one timeline
// per point, of its first succeeded run, hostile provenance refused with a line each (never a failed
// report), and the energy per step next to the model's time breakdown.
#include <catch2/catch.hpp>

#include "e2e/harness.h"
#include "e2e/telemetry_scenario.h"

using namespace e2e;

namespace {

/// Whether `what` is in `text` exactly once.
bool once(const std::string& text, const std::string& what) {
  const auto at = text.find(what);
  return at != std::string::npos && text.find(what, at + 1) == std::string::npos;
}

}  // namespace

TEST_CASE("the report draws each point's telemetry timeline and says what it refused to read") {
  Sandbox box;
  const std::string dir = telemetry_test::reported(box);
  const std::string md = read_file(dir + "/report.md");
  INFO(md);
  CHECK_THAT(md, Catch::Contains("## Telemetry\n"));
  CHECK_THAT(md, Catch::Contains("- n=1: run 1 (repetition 0), the point's first succeeded run with telemetry\n"));
  CHECK_THAT(md, Catch::Contains("/../../etc/passwd: refused as a telemetry file name: not named telemetry.&lt;node&gt;"));
  CHECK_THAT(md, Catch::Contains("/telemetry.link: is a symlink: not followed"));
  CHECK_THAT(md, Catch::Contains("/telemetry.bad:3:8: expected CPU seconds"));  // what parse_telemetry says, at file:line:column
  CHECK_THAT(md, Catch::Contains("got \"lots\""));
  const std::string html = read_file(dir + "/report.html");
  CHECK(once(html, "<img alt=\"timeline of n=1\" src=\"data:image/svg+xml;base64,"));
  CHECK(once(html, "<img alt=\"timeline of n=2\" src=\"data:image/svg+xml;base64,"));
  CHECK(once(html, "is a symlink: not followed</p>"));  // the second run of n=2 is not drawn: one timeline a point
  CHECK(html.find("root:") == std::string::npos);             // nothing of /etc/passwd reached the report
}

TEST_CASE("the report gives energy per step, and communication's share attributed by the predicted time") {
  Sandbox box;
  const std::string dir = telemetry_test::reported(box);
  const std::string md = read_file(dir + "/report.md");
  INFO(md);
  // n=1: 60 s × (40 + 100) W over 20 steps; one rank communicates nothing.
  CHECK_THAT(md, Catch::Contains("- n=1: energy: 420 J per step measured (energy_j, over 20 steps); communication costs 0 J per step (0.0% of it"));
  CHECK_THAT(md, Catch::Contains("- n=2: energy: 720 J per step measured (energy_j, over 20 steps); communication costs "));
  CHECK_THAT(md, Catch::Contains("attributed by the predicted time share: the counters cannot split joules by activity"));
  CHECK_THAT(read_file(dir + "/report.html"), Catch::Contains("<ul id=\"energy\">"));
}
