// `sweep show --efficiency` on a local campaign (docs/telemetry.md, "Efficiency"): the requested
// resources each run recorded (resources.time, resources.mem, resources.cpus-per-task) against what
// the runs used. The workload prints `peak_rss_mib` and `cpu_time_s` itself, a stand-in for the
// telemetry sampler's metrics of the same names (docs/telemetry.md, "Metrics"). report.json's
// "efficiency" is show's points; a local campaign that timed out is offered retries, not escalate, and
// `escalate` in a local experiment is warned of at plan time.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "e2e/harness.h"

using namespace e2e;

TEST_CASE("sweep show --efficiency: a local campaign's use against its request, and suggestions") {
  Sandbox box;
  box.write("eff.yaml",
            "name: eff\nmatrix:\n  x: [1, 2]\nrepetitions: 2\n"
            "resources: {time: \"00:05:00\", mem: 1G, cpus-per-task: 2}\n"
            "workload:\n  command: python3 -c 'print(\"rss=\" + str(100 * {{x}})); print(\"cpu=0.5\")'\n"
            "metrics:\n  - {name: peak_rss_mib, unit: MiB, better: lower, regex: 'rss=(?<value>[0-9]+)'}\n"
            "  - {name: cpu_time_s, unit: s, better: lower, regex: 'cpu=(?<value>[0-9.]+)'}\n");
  const auto run = box.sweep({"run", "eff.yaml", "--label", "eff"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM run_provenance WHERE key = 'resources.mem' AND value = '1G'") == 4);
  const auto text = box.sweep({"show", "eff", "--efficiency"});
  INFO(text.out << text.err);
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("point ") && Catch::Contains("(x=1): 2 succeeded"));
  CHECK_THAT(text.out, Catch::Contains("memory  used mean 100, max 100 MiB (peak_rss_mib over 2 runs); requested 1G "
                                       "(resources.mem), max used 10% of it"));
  CHECK_THAT(text.out, Catch::Contains("requested 00:05:00 (resources.time)"));
  CHECK_THAT(text.out,
             Catch::Contains("cpus    used mean") && Catch::Contains("requested 2 (resources.cpus-per-task)"));
  CHECK_THAT(text.out, Catch::Contains("gpus    used not measured; requested not requested"));
  CHECK_THAT(text.out, Catch::Contains("suggested time: \"00:01:00\", mem: 128M (p95 of 2 runs + 25%)"));
  const auto json = box.sweep({"show", "eff", "--efficiency", "--format", "json"});
  REQUIRE(json.exit_code == 0);
  const auto j = nlohmann::json::parse(json.out);
  CHECK(j["version"] == 6);
  REQUIRE(j["points"].size() == 2);
  CHECK(j["points"][1]["memory"]["used"]["max"] == 200);
  CHECK(j["points"][1]["memory"]["requested"]["value"] == 1024);
  CHECK(j["points"][1]["suggested"]["mem"] == "256M");
  CHECK(j["points"][0]["gpus"]["requested"].is_null());
  REQUIRE(box.sweep({"report", "eff", "--no-figures"}).exit_code == 0);
  CHECK_THAT(read_file(box.path("reports/eff/report.md")), Catch::Contains("## Efficiency"));
  CHECK_THAT(read_file(box.path("reports/eff/report.html")), Catch::Contains("<h2>Efficiency</h2>"));
  CHECK(nlohmann::json::parse(read_file(box.path("reports/eff/report.json")))["efficiency"] == j["points"]);
}

TEST_CASE("a local campaign's escalate is warned of at plan time, and efficiency offers it retries only") {
  Sandbox box;
  const std::string spec = box.write("slow.yaml", "name: slow\nmatrix:\n  n: [1]\nworkload:\n  command: sleep 30\n"
                                                  "resources: {time: \"00:02\"}\nretries: {TIMEOUT: 1}\nescalate:\n"
                                                  "  time: {factor: 2, max: \"00:08\"}\n");
  const std::string warning = "slow.yaml:9:3: warning: \"escalate.time\" does nothing on the local executor, whose "
                              "retries ask for the same resources (escalate is for Slurm): raise the request itself";
  const auto plan = box.sweep({"plan", spec});
  INFO(plan.out << plan.err);
  CHECK(plan.exit_code == 0);
  CHECK_THAT(plan.err, Catch::Contains(warning));
  const auto run = box.sweep({"run", spec, "--label", "slow"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 1);  // timed out, and again on its retry, which asked for the same 2 s
  CHECK_THAT(run.err, Catch::Contains(warning));
  const auto json = box.sweep({"show", "slow", "--efficiency", "--format", "json"});
  REQUIRE(json.exit_code == 0);
  const auto j = nlohmann::json::parse(json.out);
  REQUIRE(j["points"].size() == 1);
  CHECK(j["points"][0]["timed_out"] == 1);  // the run, after its retry
  CHECK(j["points"][0]["suggested"]["escalate"] ==
        nlohmann::json::array({"retries: {TIMEOUT: 2}",
                               "# no escalate: the local executor retries with the same time (escalate is for Slurm)"}));
}
