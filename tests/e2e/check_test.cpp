// `sweep check`: a real campaign against the references of its system, from the experiment and from
// the site file (whose name is the system unless --system says otherwise); text, JUnit and exit codes.
#include <catch2/catch.hpp>

#include "e2e/harness.h"

using namespace e2e;

namespace {

// bytes = what coreutils' wc counts of n characters: 1000 and 2000.
const char* kExperiment = R"(name: bytes
matrix:
  n: [1000, 2000]
repetitions: 2
workload:
  command: "head -c {{n}} /dev/zero | wc -c | sed 's/^/bytes=/'"
metrics:
  - {name: bytes, unit: B, better: higher, regex: 'bytes=(?<value>\d+)'}
references:
  - {system: test-lab, metric: bytes, value: 2100, lower: -0.02, where: "n == 2000"}
  - {system: "*", metric: bytes, value: 1000, lower: -0.01, upper: 0.01, where: "n == 1000"}
)";

}  // namespace

TEST_CASE("sweep check: a reference not measured, or none for the system, could not be checked: exit 7") {
  Sandbox box;
  // n=2000 fails: its reference is not measured, which is not a pass.
  std::string failing = kExperiment;
  failing.replace(failing.find("\"head"), 5, "\"test {{n}} != 2000 && head");
  box.write("bytes.yaml", failing);
  REQUIRE(box.sweep({"run", "bytes.yaml", "--label", "b", "--site", "none"}).exit_code == 1);
  const auto unmeasured = box.sweep({"check", "b", "--site", "none", "--system", "test-lab"});
  INFO(unmeasured.out << unmeasured.err);
  CHECK(unmeasured.exit_code == 7);
  CHECK_THAT(unmeasured.out, Catch::Contains("not measured: no succeeded run reported it"));
  // The passing n=1000 alone is checked by the "*" entry on another system: exit 0.
  CHECK(box.sweep({"check", "b", "--site", "none", "--system", "elsewhere"}).exit_code == 0);
  box.write("lab-only.yaml", std::string(kExperiment).substr(0, std::string(kExperiment).find("  - {system: \"*\"")));
  REQUIRE(box.sweep({"run", "lab-only.yaml", "--label", "lab", "--site", "none"}).exit_code == 0);
  const auto none = box.sweep({"check", "lab", "--site", "none", "--system", "elsewhere"});
  CHECK(none.exit_code == 7);
  CHECK_THAT(none.err, Catch::Contains("no references for system \"elsewhere\""));
}

TEST_CASE("sweep check: each point against its system's reference, the site's name choosing the system") {
  Sandbox box;
  box.write("bytes.yaml", kExperiment);
  const std::string site = box.write("site.yaml", "format: 1\nname: test-lab\nreferences:\n"
                                                  "  - {metric: bytes, value: 1990, lower: -0.01, where: \"n == 2000\"}\n");
  REQUIRE(box.sweep({"run", "bytes.yaml", "--label", "b", "--site", "none"}).exit_code == 0);

  const auto lab = box.sweep({"check", "b", "--site", site});
  INFO(lab.out << lab.err);
  CHECK(lab.exit_code == 1);  // the experiment's test-lab entry wins over the site's at n=2000
  CHECK_THAT(lab.out, Catch::Contains("n=2000 bytes: -4.76% is below the lower bound -2.00%") &&
                          Catch::Contains("b on system \"test-lab\": 1 of 2 references met, 1 failed"));

  const auto other = box.sweep({"check", "b", "--site", site, "--system", "other", "--format", "junit", "--output", "c.xml"});
  INFO(other.out << other.err);
  CHECK(other.exit_code == 0);  // n=1000 by the experiment's "*", n=2000 by the site's (1990 -1%: 2000 passes)
  const std::string xml = read_file(box.path("c.xml"));
  CHECK_THAT(xml, Catch::Contains("tests=\"2\" failures=\"0\"") && Catch::Contains("classname=\"n=2000\" name=\"bytes\""));

  const auto none = box.sweep({"check", "b", "--site", "none", "--system", "elsewhere"});
  CHECK(none.exit_code == 0);  // only the "*" entry applies, at n=1000
  CHECK_THAT(none.out, Catch::Contains("1 of 1 references met"));
}
