// `sweep report` of a campaign whose runs have telemetry (tests/e2e/telemetry_scenario.h): one timeline
// per point, of its first succeeded run, hostile provenance refused with a line each (never a failed
// report), the energy per step next to the model's time breakdown, and both in report.json. Then the
// whole chain with the real sampler: a campaign with telemetry on and the NVML stand-in
// (tests/support/nvml_standin.cpp, named as such), ingest, and the report's timeline of its file.
#include <catch2/catch.hpp>

#include <SQLiteCpp/SQLiteCpp.h>
#include <nlohmann/json.hpp>

#include "e2e/harness.h"
#include "e2e/telemetry_scenario.h"

using namespace e2e;

namespace {

/// RFC 4648 base64 decoded (for the timelines' data: URIs); stops at the first byte outside the alphabet.
std::string unbase64(const std::string& text) {
  static const std::string kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned bits = 0, count = 0;
  for (const char c : text) {
    const auto at = kAlphabet.find(c);
    if (at == std::string::npos) break;
    bits = (bits << 6) | static_cast<unsigned>(at);
    if ((count += 6) >= 8) out += static_cast<char>((bits >> (count -= 8)) & 0xff);
  }
  return out;
}

/// The SVG of the first timeline image in `html` ("" when none).
std::string first_timeline_svg(const std::string& html) {
  const std::string prefix = "src=\"data:image/svg+xml;base64,";
  const auto at = html.find(prefix);
  return at == std::string::npos ? "" : unbase64(html.substr(at + prefix.size()));
}

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

TEST_CASE("report.json carries the efficiency, energy per step and timelines of the telemetry report") {
  Sandbox box;
  const std::string dir = telemetry_test::reported(box);
  const auto j = nlohmann::json::parse(read_file(dir + "/report.json"));
  INFO(j.dump(1));
  CHECK(j["version"] == 8);
  // No run recorded a request (no resources:) or a usage figure (the sampler is off): no section, as
  // report.html has none.
  CHECK(j["efficiency"].is_null());
  CHECK(read_file(dir + "/report.html").find("id=\"efficiency\"") == std::string::npos);
  const auto& energy = j["energy"];
  REQUIRE(energy.size() == 2);
  CHECK(energy[0]["label"] == "n=1");
  CHECK(energy[0]["per_step_j"] == 420);  // 60 s × (40 + 100) W over 20 steps
  CHECK(energy[0]["comm_share"] == 0);    // one rank communicates nothing
  CHECK(energy[0]["comm_per_step_j"] == 0);
  CHECK(energy[1]["per_step_j"] == 720);  // 60 s × (40 + 200) W over 20 steps
  CHECK(energy[1]["comm_share"].get<double>() > 0);
  CHECK(energy[1]["comm_per_step_j"].get<double>() == Approx(720 * energy[1]["comm_share"].get<double>()));
  CHECK(energy[1]["joules_from"] == "energy_j");
  CHECK(energy[1]["steps_from"] == "over 20 steps");
  const auto& timelines = j["timelines"];
  REQUIRE(timelines.size() == 2);
  CHECK(timelines[0]["label"] == "n=1");
  CHECK(timelines[0]["run_id"] == 1);
  CHECK(timelines[0]["repetition"] == 0);
  CHECK(timelines[0]["files"] == nlohmann::json::array({"telemetry.nodeA"}));
  CHECK(timelines[0]["nodes"] == nlohmann::json::array({"nodeA"}));
  CHECK(timelines[0]["cut_short"] == nlohmann::json::array());
  CHECK(timelines[0]["problems"] == nlohmann::json::array());
  const auto& two = timelines[1];
  CHECK(two["label"] == "n=2");
  CHECK(two["repetition"] == 0);
  CHECK(two["files"] == nlohmann::json::array({"telemetry.nodeA", "telemetry.nodeB", "../../etc/passwd", "telemetry.link",
                                               "telemetry.bad"}));
  CHECK(two["nodes"] == nlohmann::json::array({"nodeA", "nodeB"}));
  CHECK(two["cut_short"] == nlohmann::json::array({"nodeB"}));  // its file has no end
  REQUIRE(two["problems"].size() == 3);                         // the name, the symlink, the malformed file
  CHECK_THAT(two["problems"][2].get<std::string>(), Catch::Contains("/telemetry.bad:3:8: expected CPU seconds"));
}

TEST_CASE("the real sampler's file of a run reaches the report's timeline and report.json") {
  Sandbox box;
  const std::string script = box.write("nvml-script", "gpu GPU-standin-0 200 50 20 1000 1400 45 0x0 Stand-in GPU\n");
  // In setup, not env: env refuses names starting with SWEEP_ (sweep's own).
  box.write("chain.yaml", "name: chain\ntelemetry: {interval_ms: 100}\nmatrix:\n  n: [1]\n"
                          "workload:\n  command: \"sleep 1; echo steps=10\"\n"
                          "metrics:\n  - {name: steps, better: higher, regex: 'steps=(?<value>[0-9]+)'}\n"
                          "setup:\n  - export SWEEP_NVML_LIBRARY=" + NVML_STANDIN_LIB + " SWEEP_NVML_STANDIN=" + script + "\n");
  const auto run = box.sweep({"run", "chain.yaml", "--label", "chain"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::string recorded;  // what ingest recorded of the run's telemetry, for a failure to explain itself
  auto db = box.db();
  SQLite::Statement q(db, "SELECT key || ' = ' || value FROM run_provenance WHERE key LIKE 'telemetry.%'");
  while (q.executeStep()) recorded += q.getColumn(0).getString() + "\n";
  INFO(recorded);
  const auto report = box.sweep({"report", "chain", "--no-figures"});
  INFO(report.out << report.err);
  REQUIRE(report.exit_code == 0);
  const std::string html = read_file(box.path("reports/chain/report.html"));
  CHECK_THAT(html, Catch::Contains("<h2 id=\"telemetry\">Telemetry</h2>"));
  CHECK_THAT(html, Catch::Contains("<img alt=\"timeline of n=1\" src=\"data:image/svg+xml;base64,"));
  CHECK(html.find("class=\"error\"") == std::string::npos);  // every file named was read
  const std::string svg = first_timeline_svg(html);
  INFO(svg);
  CHECK_THAT(svg, Catch::Contains("GPU 0 power</text>"));  // the stand-in's GPU, drawn as a series
  CHECK_THAT(svg, Catch::Contains("<polyline"));
  CHECK(svg.find("cut short") == std::string::npos);  // the sampler wrote its end
  const auto j = nlohmann::json::parse(read_file(box.path("reports/chain/report.json")));
  INFO(j.dump(1));
  REQUIRE(j["timelines"].size() == 1);
  const auto& t = j["timelines"][0];
  REQUIRE(t["nodes"].size() == 1);
  CHECK(t["files"] == nlohmann::json::array({"telemetry." + t["nodes"][0].get<std::string>()}));
  CHECK(t["cut_short"] == nlohmann::json::array());
  CHECK(t["problems"] == nlohmann::json::array());
  // The sampler's gpu_util_mean is the efficiency's GPU use: the stand-in's 50%.
  REQUIRE(j["efficiency"].size() == 1);
  CHECK(j["efficiency"][0]["gpus"]["used"]["mean"] == Approx(50));
  CHECK(j["efficiency"][0]["gpus"]["used"]["from"] == "gpu_util_mean");
  // energy_j (the stand-in's counter) over the workload's 10 steps.
  REQUIRE(j["energy"].size() == 1);
  CHECK(j["energy"][0]["joules_from"] == "energy_j");
  const double joules = j["points"][0]["metrics"]["energy_j"]["mean"].get<double>();
  CHECK(joules >= 150);  // at least ~1 s at 200 W
  CHECK(j["energy"][0]["per_step_j"].get<double>() == Approx(joules / 10));
}
