// The forecast and the budget (docs/forecasts.md, issue 38): `sweep plan --estimate` against a database
// of known durations, `sweep run`'s stored forecast, the budget's refusal, and the report's forecast
// against actual. Real processes, a real SQLite file: the known durations are written into runs.elapsed_s
// of a finished campaign, as the runs would have taken them.
#include <SQLiteCpp/Database.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "e2e/harness.h"

namespace {

using e2e::Sandbox;

/// Two points n = 1, 2 of `nodes: n`, 2 GPUs per node, 10 minutes each, 3 repetitions.
void write_experiment(const Sandbox& box) {
  box.write("fc.yaml",
            "name: fc\ntelemetry: false\nmatrix:\n  n: [1, 2]\nrepetitions: 3\n"
            "resources:\n  nodes: \"{{n}}\"\n  gpus-per-node: 2\n  time: \"10:00\"\n"
            "workload:\n  command: >-\n    echo '{\"v\": 1, \"metric\": \"speed\", \"value\": {{n}}, \"unit\": \"it/s\", "
            "\"better\": \"higher\"}'\n");
}

/// Runs campaign `label` and sets its runs' wall times: n=1 takes 10, 20, 30 s; n=2 100, 200, 400 s.
void run_with_known_durations(const Sandbox& box, const std::string& label) {
  const auto run = box.sweep({"run", "fc.yaml", "--label", label});
  REQUIRE(run.exit_code == 0);
  SQLite::Database db(box.path("results/sweep.db"), SQLite::OPEN_READWRITE);
  db.exec("UPDATE runs SET elapsed_s = CASE (SELECT value FROM point_params p WHERE p.campaign_id = runs.campaign_id "
          "AND p.point_id = runs.point_id AND p.name = 'n') WHEN '1' THEN 10 * (repetition + 1) "
          "ELSE 100 * (1 << repetition) END WHERE campaign_id = (SELECT id FROM campaigns WHERE label = '" + label + "')");
}

nlohmann::json estimate_of(const Sandbox& box, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"plan", "fc.yaml", "--estimate", "--format", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto plan = box.sweep(args);
  INFO(plan.err);
  REQUIRE(plan.exit_code == 0);
  const auto doc = nlohmann::json::parse(plan.out);
  CHECK(doc["version"] == 2);
  return doc["estimate"];
}

}  // namespace

TEST_CASE("forecast: plan --estimate without history bounds each run by its time limit") {
  Sandbox box;
  write_experiment(box);
  const auto e = estimate_of(box);
  for (const auto& p : e["points"]) {
    CHECK(p["source"] == "time_limit");
    CHECK(p["expected_s"] == 600.0);
    CHECK(p["upper_s"] == 600.0);
  }
  // 3 runs x (2 + 4) GPUs x 600 s = 3 GPU-hours; 3 x (1 + 2) nodes x 600 s = 1.5 node-hours.
  CHECK(e["totals"]["gpu_hours_upper"] == Approx(3.0));
  CHECK(e["totals"]["node_hours_upper"] == Approx(1.5));
  const auto table = box.sweep({"plan", "fc.yaml", "--estimate"});
  CHECK_THAT(table.out, Catch::Contains("time_limit (upper bound)"));
  CHECK_FALSE(std::filesystem::exists(box.path("results/sweep.db")));  // a plan creates no database
}

TEST_CASE("forecast: plan --estimate against a database of known durations gives exact figures") {
  Sandbox box;
  write_experiment(box);
  run_with_known_durations(box, "first");
  const auto e = estimate_of(box, {"--jobs", "2"});
  REQUIRE(e["points"].size() == 2);
  const auto& p1 = e["points"][0];
  const auto& p2 = e["points"][1];
  CHECK(p1["label"] == "n=1");
  CHECK(p1["source"] == "history");
  CHECK(p1["history_runs"] == 3);
  CHECK(p1["expected_s"] == 20.0);  // the median of 10, 20, 30
  CHECK(p1["upper_s"] == 30.0);     // p95 by nearest rank: the 3rd of 3
  CHECK(p1["gpus"] == 2);
  CHECK(p2["expected_s"] == 200.0);
  CHECK(p2["upper_s"] == 400.0);
  CHECK(p2["nodes"] == 2);
  CHECK(p2["gpus"] == 4);
  // GPU-hours: 3 x 2 x 20 / 3600 + 3 x 4 x 200 / 3600 = 0.7; upper 3 x 2 x 30 / 3600 + 3 x 4 x 400 / 3600 = 1.38333.
  CHECK(e["totals"]["gpu_hours_expected"] == Approx(0.7));
  CHECK(e["totals"]["gpu_hours_upper"] == Approx(4980.0 / 3600));
  CHECK(e["totals"]["node_hours_expected"] == Approx((3 * 20 + 3 * 2 * 200) / 3600.0));
  CHECK(e["totals"]["node_hours_upper"] == Approx((3 * 30 + 3 * 2 * 400) / 3600.0));
  // Two at a time in interleaved order: 20|200, 20 (20-40), 200 (40-240), 20 (200-220), 200 (220-420).
  CHECK(e["totals"]["wall_s"] == 420.0);
  CHECK(e["concurrency"] == 2);
  CHECK(e["totals"]["unknown"].empty());
  const auto text = box.sweep({"plan", "fc.yaml", "--estimate"});
  CHECK_THAT(text.out, Catch::Contains("history (3 runs)"));
  CHECK_THAT(text.out, Catch::Contains("forecast: 2 points, 6 runs; 0.7000 GPU-hours expected, 1.3833 upper"));
}

TEST_CASE("forecast: a budget refuses the campaign with its numbers, before anything is created") {
  Sandbox box;
  write_experiment(box);
  const auto plan = box.sweep({"plan", "fc.yaml", "--estimate", "--budget", "2.5 gpu-hours"});
  CHECK(plan.exit_code == 2);
  CHECK_THAT(plan.err, Catch::Contains("the campaign's upper forecast, 3.000 GPU-hours (expected 3.000), exceeds the "
                                       "budget of 2.5 GPU-hours (--budget)"));
  CHECK_THAT(plan.err, Catch::Contains("n=2: 2 GPU-hours upper (3 runs x 4 GPUs x 600 s, time_limit)"));
  CHECK(plan.err.find("n=2:") < plan.err.find("n=1:"));  // the largest first
  const auto run = box.sweep({"run", "fc.yaml", "--label", "over", "--budget", "1", "node-hours"});  // as typed in a shell
  CHECK(run.exit_code == 2);
  CHECK_THAT(run.err, Catch::Contains("1.500 node-hours (expected 1.500), exceeds the budget of 1 node-hours"));
  CHECK_FALSE(std::filesystem::exists(box.path("results/over")));
  CHECK_FALSE(std::filesystem::exists(box.path("results/sweep.db")));
  const auto dry = box.sweep({"run", "fc.yaml", "--dry-run", "--budget", "1 gpu-hours"});  // a dry run applies it too
  CHECK(dry.exit_code == 2);
  CHECK_THAT(dry.err, Catch::Contains("exceeds the budget of 1 GPU-hours"));
  CHECK(box.sweep({"plan", "fc.yaml", "--estimate", "--budget", "3 gpu-hours"}).exit_code == 0);
  CHECK(box.sweep({"plan", "--estimate", "--budget", "3", "gpu-hours", "fc.yaml"}).exit_code == 0);
  CHECK(box.sweep({"plan", "fc.yaml", "--estimate", "--budget", "3gpu-hours"}).exit_code == 0);
  const auto bad = box.sweep({"plan", "fc.yaml", "--estimate", "--budget", "3 hours"});
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("--budget \"3 hours\": expected N gpu-hours, N node-hours or none"));
}

TEST_CASE("forecast: a point without a duration makes a budget refuse, naming it") {
  Sandbox box;
  box.write("free.yaml", "name: free\ntelemetry: false\nmatrix:\n  n: [1, 2]\nworkload:\n  command: \"true\"\n");
  const auto plan = box.sweep({"plan", "free.yaml", "--estimate"});
  CHECK(plan.exit_code == 0);
  CHECK_THAT(plan.out, Catch::Contains("2 of 2 points unknown (no history, model or time limit: n=1, n=2), not counted"));
  const auto refused = box.sweep({"run", "free.yaml", "--budget", "100 gpu-hours"});
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("upper forecast is unknown: 2 of 2 points have no duration (n=1, n=2); set their `time`"));
}

TEST_CASE("forecast: the site's budget is the default, --budget none lifts it, a bad one is refused at its place") {
  Sandbox box;
  write_experiment(box);
  const std::string site = box.write("site.yaml", "format: 1\nname: lab\nbudget: {gpu_hours: 2}\n");
  const auto refused = box.sweep({"plan", "fc.yaml", "--estimate", "--site", site});
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("exceeds the budget of 2 GPU-hours (" + site + ":3:21)"));
  CHECK(box.sweep({"plan", "fc.yaml", "--estimate", "--site", site, "--budget", "none"}).exit_code == 0);
  const auto shown = box.sweep({"site", "--site", site});
  CHECK_THAT(shown.out, Catch::Contains("2 gpu-hours"));
  const std::string bad = box.write("bad.yaml", "format: 1\nbudget: {gpu_hours: lots}\n");
  const auto invalid = box.sweep({"plan", "fc.yaml", "--site", bad});
  CHECK(invalid.exit_code != 0);
  CHECK_THAT(invalid.err, Catch::Contains(bad + ":2:21"));
  const std::string both = box.write("both.yaml", "format: 1\nbudget: {gpu_hours: 1, node_hours: 1}\n");
  CHECK_THAT(box.sweep({"plan", "fc.yaml", "--site", both}).err, Catch::Contains("one of gpu_hours: N or node_hours: N"));
}

TEST_CASE("forecast: run stores the forecast with the campaign, a resume keeps it, the report sets it against actual") {
  Sandbox box;
  write_experiment(box);
  run_with_known_durations(box, "first");
  const auto second = box.sweep({"run", "fc.yaml", "--label", "second"});
  REQUIRE(second.exit_code == 0);
  CHECK_THAT(second.err, Catch::Contains("sweep: forecast: 2 points, 6 runs; 0.7000 GPU-hours expected, 1.3833 upper"));
  {
    SQLite::Database db(box.path("results/sweep.db"), SQLite::OPEN_READWRITE);
    CHECK(e2e::scalar(db, "SELECT COUNT(*) FROM campaign_forecasts f JOIN campaigns c ON c.id = f.campaign_id "
                          "WHERE c.label = 'second' AND f.source = 'history'") == 2);
    CHECK(e2e::scalar(db, "SELECT COUNT(*) FROM campaign_forecasts f JOIN campaigns c ON c.id = f.campaign_id "
                          "WHERE c.label = 'first' AND f.source = 'time_limit'") == 2);
    // The second campaign's runs took 15 s (n=1) and 300 s (n=2) each.
    db.exec("UPDATE runs SET elapsed_s = CASE (SELECT value FROM point_params p WHERE p.campaign_id = runs.campaign_id "
            "AND p.point_id = runs.point_id AND p.name = 'n') WHEN '1' THEN 15 ELSE 300 END "
            "WHERE campaign_id = (SELECT id FROM campaigns WHERE label = 'second')");
  }
  // A resume keeps the first forecast (no new rows, the old ones unchanged).
  CHECK(box.sweep({"run", "--resume", "second"}).exit_code == 0);
  {
    auto db = box.db();
    CHECK(e2e::scalar(db, "SELECT COUNT(*) FROM campaign_forecasts f JOIN campaigns c ON c.id = f.campaign_id "
                          "WHERE c.label = 'second' AND f.expected_s IN (20, 200)") == 2);
  }
  REQUIRE(box.sweep({"report", "second"}).exit_code == 0);
  const std::string md = e2e::read_file(box.path("reports/second/report.md"));
  CHECK_THAT(md, Catch::Contains("## Forecast against actual"));
  CHECK_THAT(md, Catch::Contains("| n=1 | 3 | 2 | 20 | 30 | history | 3 | 15 | 0.0333 | 0.0500 | 0.0250 |"));
  CHECK_THAT(md, Catch::Contains("| n=2 | 3 | 4 | 200 | 400 | history | 3 | 300 | 0.6667 | 1.3333 | 1.0000 |"));
  CHECK_THAT(md, Catch::Contains("Total: 0.7000 GPU-hours expected, 1.3833 upper, 1.0250 used."));
  const std::string html = e2e::read_file(box.path("reports/second/report.html"));
  CHECK_THAT(html, Catch::Contains("<h2>Forecast against actual</h2>"));
  const auto json = nlohmann::json::parse(e2e::read_file(box.path("reports/second/report.json")));
  CHECK(json["version"] == 8);
  CHECK(json["forecast"]["points"][1]["median_elapsed_s"] == 300.0);
  CHECK(json["forecast"]["totals"]["gpu_hours_used"] == Approx(1.025));
}

TEST_CASE("forecast: a collbench point without history is forecast by the analytical model") {
  Sandbox box;
  box.write("cb.yaml", "name: cb\ntelemetry: false\nmatrix:\n  interconnect: [ib-hdr, 10gbe]\nresources:\n  ntasks: 2\n"
                       "workload:\n  bundled: collbench\n  launcher: mpirun\n  args:\n    backend: gloo\n"
                       "    min-bytes: 1M\n    iters: 10\n    warmup: 2\n");
  const auto plan = box.sweep({"plan", "cb.yaml", "--estimate", "--format", "json"});
  INFO(plan.err);
  REQUIRE(plan.exit_code == 0);
  const auto e = nlohmann::json::parse(plan.out)["estimate"];
  // 12 ring all-reduces of 1 MiB over 2 ranks: 2(n-1)a + 2(n-1)/n S/b each (docs/model.md).
  const double hdr = 12 * (2 * 0.6e-6 + 1048576 / 25e9);
  const double ten_gbe = 12 * (1048576 / 1.25e9);  // Ethernet's latency is unknown: 0
  CHECK(e["points"][0]["source"] == "model");
  CHECK(e["points"][0]["expected_s"].get<double>() == Approx(hdr));
  CHECK(e["points"][0]["upper_s"].get<double>() == Approx(hdr * 1.5));
  CHECK(e["points"][1]["expected_s"].get<double>() == Approx(ten_gbe));
  // A name the table lacks gives the model nothing to go on.
  const auto other = box.sweep({"plan", "cb.yaml", "--estimate", "--set", "interconnect=[pigeon]"});
  CHECK_THAT(other.out, Catch::Contains("1 of 1 points unknown"));
}

TEST_CASE("forecast: a database's negative or non-finite durations are not history") {
  Sandbox box;
  write_experiment(box);
  run_with_known_durations(box, "first");
  {
    SQLite::Database db(box.path("results/sweep.db"), SQLite::OPEN_READWRITE);
    db.exec("UPDATE runs SET elapsed_s = -1e9 WHERE repetition = 2");  // a forged row would make any budget pass
  }
  const auto e = estimate_of(box);
  CHECK(e["points"][0]["history_runs"] == 2);
  CHECK(e["points"][0]["expected_s"] == 15.0);  // the median of 10 and 20
  CHECK(e["points"][1]["upper_s"] == 200.0);
  CHECK(e["totals"]["gpu_hours_upper"].get<double>() > 0);
}

TEST_CASE("forecast: this system's history forecasts its points, another system's only where it has none") {
  Sandbox box;
  write_experiment(box);
  run_with_known_durations(box, "here");  // system "" (no site name): 10/20/30 s and 100/200/400 s
  REQUIRE(box.sweep({"run", "fc.yaml", "--label", "far"}).exit_code == 0);
  {  // as an imported campaign of another cluster would be: its system named, its runs 1000 s each
    SQLite::Database db(box.path("results/sweep.db"), SQLite::OPEN_READWRITE);
    db.exec("UPDATE campaigns SET system = 'national' WHERE label = 'far'");
    db.exec("UPDATE runs SET elapsed_s = 1000 WHERE campaign_id = (SELECT id FROM campaigns WHERE label = 'far')");
  }
  const auto here = estimate_of(box);
  CHECK(here["points"][0]["history_runs"] == 3);
  CHECK(here["points"][0]["expected_s"] == 20.0);
  box.write("national.yaml", "format: 1\nname: national\n");
  const auto national = estimate_of(box, {"--site", box.path("national.yaml")});
  CHECK(national["points"][0]["history_runs"] == 3);
  CHECK(national["points"][0]["expected_s"] == 1000.0);
  box.write("new.yaml", "format: 1\nname: new-cluster\n");  // never ran it: every system's runs count
  const auto fresh = estimate_of(box, {"--site", box.path("new.yaml")});
  CHECK(fresh["points"][0]["history_runs"] == 6);
  CHECK(fresh["points"][0]["upper_s"] == 1000.0);
}
