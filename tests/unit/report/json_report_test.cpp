// report.json: valid JSON of format version 8 with provenance, per-point statistics, failed runs, the
// change points of the report's history, and the efficiency, energy per step and telemetry timelines.
#include <catch2/catch.hpp>

#include <cmath>
#include <nlohmann/json.hpp>

#include "report/json_report.h"

using namespace sweep;
using namespace sweep::report;

TEST_CASE("the JSON report carries statistics per point and metric, and the failed runs") {
  CampaignData d;
  d.campaign.label = "c\"1";
  d.campaign.git_dirty = true;
  d.points.push_back({"p1", 0, {{"model", "<script>alert(1)</script>", "string", false}}});
  for (int rep = 0; rep < 3; ++rep) {
    store::RunRecord r;
    r.id = rep + 1;
    r.point_id = "p1";
    r.repetition = rep;
    r.attempt = 1;
    r.state = rep == 2 ? store::RunState::failed : store::RunState::succeeded;
    r.failure_class = rep == 2 ? "exit_code" : "";
    r.failure_reason = rep == 2 ? "exited with code 3" : "";
    d.runs.push_back(r);
    d.metrics.push_back({r.id, "p1", rep, r.state, {"tput", 0, 10.0 + rep, "it/s", "higher"}});
  }
  const auto j = nlohmann::json::parse(json_report(d, point_results(d)));
  CHECK(j["version"] == 8);
  CHECK(j["forecast"].is_null());  // a campaign without forecast rows
  // No request, usage, joules or telemetry: null, as report.html has none of these sections.
  CHECK(j["efficiency"].is_null());
  CHECK(j["energy"].is_null());
  CHECK(j["timelines"].is_null());
  CHECK(j["campaign"]["label"] == "c\"1");
  CHECK(j["campaign"]["git_dirty"] == true);
  const auto& point = j["points"][0];
  CHECK(point["params"][0]["value"] == "<script>alert(1)</script>");
  CHECK(point["succeeded"] == 2);
  CHECK(point["failed"] == 1);
  const auto& m = point["metrics"]["tput"];
  CHECK(m["n"] == 2);  // the failed run's value is not counted
  CHECK(m["mean"].get<double>() == Approx(10.5));
  CHECK(m["values"] == nlohmann::json::array({10.0, 11.0}));
  CHECK(m["ci95"][0].get<double>() < 10.5);
  CHECK(m["better"] == "higher");
  CHECK(j["failed_runs"][0]["reason"] == "exited with code 3");
  CHECK(j["change_points"] == nlohmann::json::array());  // no history
  CHECK(j["change_point_method"]["name"] == "e-divisive");
}

TEST_CASE("the JSON report lists the history's change points with the method's parameters") {
  CampaignData d;
  d.campaign.label = "nightly-2026-01-12";
  std::vector<HistoryChangePoint> changes{{"busbw", "size=1M", "2026-01-07", "nightly-2026-01-07", {6, 10, 9, -0.1, 42, 0.005}},
                                          {"t\"ime", "", "2026-01-09", "nightly-2026-01-09", {8, 0, 2, NAN, 7, 0.03}}};
  const auto j = nlohmann::json::parse(json_report(d, point_results(d), changes));
  const auto& method = j["change_point_method"];
  CHECK(method["alpha"] == 1);
  CHECK(method["min_segment"] == 3);
  CHECK(method["permutations"] == 199);
  CHECK(method["significance"].get<double>() == Approx(0.05));
  REQUIRE(j["change_points"].size() == 2);
  const auto& c = j["change_points"][0];
  CHECK(c["metric"] == "busbw");
  CHECK(c["point"] == "size=1M");
  CHECK(c["night"] == "2026-01-07");
  CHECK(c["campaign"] == "nightly-2026-01-07");
  CHECK(c["index"] == 6);
  CHECK(c["before"].get<double>() == Approx(10));
  CHECK(c["after"].get<double>() == Approx(9));
  CHECK(c["relative"].get<double>() == Approx(-0.1));
  CHECK(c["statistic"].get<double>() == Approx(42));
  CHECK(c["p"].get<double>() == Approx(0.005));
  CHECK(j["change_points"][1]["metric"] == "t\"ime");
  CHECK(j["change_points"][1]["relative"].is_null());  // before is 0
}

TEST_CASE("the JSON report carries the efficiency, energy per step and timelines of its points") {
  CampaignData d;
  d.campaign.label = "c";
  d.campaign.executor = "local";
  d.points.push_back({"p1", 0, {{"n", "1", "int", false}}});
  store::RunRecord r;
  r.id = 7;
  r.point_id = "p1";
  r.attempt = 1;
  r.state = store::RunState::succeeded;
  r.elapsed_s = 10;
  d.runs.push_back(r);
  d.usage.push_back({7, "cpu_time_s", 20});
  for (const auto& [name, value] : {std::pair{"energy_j", 600.0}, {"steps", 20.0}})
    d.metrics.push_back({7, "p1", 0, r.state, {name, 0, value, "", "lower"}});
  Timelines t;
  t.points.push_back({"n=1", "p1", 7, 0, Timeline{{}, {{"a", 9, false}, {"b", 4, true}}, 0, 9}, {"x: refused"}, {"telemetry.a", "telemetry.b"}});
  const auto j = nlohmann::json::parse(json_report(d, point_results(d), {}, {}, "null", t));
  REQUIRE(j["efficiency"].size() == 1);
  CHECK(j["efficiency"][0]["point"] == "p1");
  CHECK(j["efficiency"][0]["cpus"]["used"]["mean"] == 2);  // 20 CPU seconds over 10 s
  CHECK(j["efficiency"][0]["cpus"]["used"]["from"] == "cpu_time_s / elapsed_s");
  REQUIRE(j["energy"].size() == 1);
  CHECK(j["energy"][0]["per_step_j"] == 30);
  CHECK(j["energy"][0]["steps_from"] == "over 20 steps");
  REQUIRE(j["timelines"].size() == 1);
  const auto& tl = j["timelines"][0];
  CHECK(tl["run_id"] == 7);
  CHECK(tl["files"] == nlohmann::json::array({"telemetry.a", "telemetry.b"}));
  CHECK(tl["nodes"] == nlohmann::json::array({"a", "b"}));
  CHECK(tl["cut_short"] == nlohmann::json::array({"b"}));
  CHECK(tl["problems"] == nlohmann::json::array({"x: refused"}));
}
