#include <catch2/catch.hpp>

#include "e2e/harness.h"

using namespace e2e;

TEST_CASE("the demo experiment runs end to end into the database and a report") {
  Sandbox box;
  const auto run = box.sweep({"run", repo_file("experiments/demo.yaml"), "--label", "demo", "--jobs", "2"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.out, Catch::Contains("12 runs planned, 12 succeeded, 0 failed"));
  CHECK_THAT(run.out, Catch::Contains("database: results/sweep.db"));

  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM campaigns WHERE label = 'demo' AND ended_at IS NOT NULL") == 1);
  CHECK(scalar(db, "SELECT count(*) FROM points") == 4);
  CHECK(scalar(db, "SELECT count(*) FROM point_params WHERE name = 'items_per_thread' AND derived = 1") == 4);
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE state = 'succeeded' AND attempt = 1") == 12);
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'elapsed' AND unit = 's' AND value > 0") == 12);
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'throughput' AND better = 'higher'") == 12);
  CHECK(scalar(db, "SELECT count(*) FROM run_provenance WHERE key = 'hostname'") == 12);
  CHECK(scalar(db, "SELECT count(*) FROM point_params WHERE name = 'n' AND type = 'int' AND value = '200000'") == 2);

  const auto report = box.sweep({"report", "demo", "--stdout"});
  INFO(report.err);
  REQUIRE(report.exit_code == 0);
  CHECK_THAT(report.out, Catch::Contains("| n | threads | elapsed (s) | throughput (lines/s) |"));
  CHECK_THAT(report.out, Catch::Contains("| 200000 | 2 |"));
  CHECK_THAT(report.out, Catch::Contains("(3) |"));
  CHECK_THAT(read_file(box.path("reports/demo/report.csv")),
             Catch::StartsWith("n,threads,elapsed (s) mean,elapsed (s) sd,elapsed (s) n,"));

  const auto pivot = box.sweep({"report", "demo", "--rows", "n", "--cols", "threads", "--stdout"});
  REQUIRE(pivot.exit_code == 0);
  CHECK_THAT(pivot.out, Catch::Contains("### elapsed (s)"));
  CHECK_THAT(pivot.out, Catch::Contains("| n | threads=1 | threads=2 |"));

  const auto ls = box.sweep({"ls"});
  CHECK_THAT(ls.out, Catch::Contains("demo") && Catch::Contains("12"));
  const auto show = box.sweep({"show", "demo"});
  CHECK_THAT(show.out, Catch::Contains("spec sha256") && Catch::Contains("cpu_model"));
}

TEST_CASE("plan prints every point and the run count without running anything") {
  Sandbox box;
  const auto plan = box.sweep({"plan", repo_file("experiments/demo.yaml"), "--format", "json"});
  REQUIRE(plan.exit_code == 0);
  CHECK_THAT(plan.out, Catch::Contains(R"("format":"sweep-plan","version":1)"));
  CHECK_THAT(plan.out, Catch::Contains(R"("point_count":4,"repetitions":3,"run_count":12)"));
  CHECK_THAT(plan.out, Catch::Contains(R"("n":200000,"threads":2,"items_per_thread":100000)"));
  const auto table = box.sweep({"plan", repo_file("experiments/demo.yaml")});
  CHECK_THAT(table.out, Catch::Contains("4 points x 3 repetitions = 12 runs"));
  const auto set = box.sweep({"plan", repo_file("experiments/demo.yaml"), "--set", "threads=4", "--format", "csv"});
  CHECK_THAT(set.out, Catch::Contains(",20000,4,5000"));
  CHECK_FALSE(std::filesystem::exists(box.path("results")));
}

TEST_CASE("dry-run renders the job scripts and records nothing") {
  Sandbox box;
  const auto run = box.sweep({"run", repo_file("experiments/demo.yaml"), "--label", "dry", "--dry-run"});
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.out, Catch::Contains("rendered 12 job scripts"));
  CHECK_FALSE(std::filesystem::exists(box.path("results/sweep.db")));
  int scripts = 0;
  for (const auto& e : std::filesystem::directory_iterator(box.path("results/dry/dry-run"))) {
    ++scripts;
    CHECK_THAT(read_file(e.path().string()), Catch::Contains("seq 20000") || Catch::Contains("seq 200000"));
  }
  CHECK(scripts == 12);
}
