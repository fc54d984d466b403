// A scheduler's usage figures as a run's metrics and provenance (runner/job_usage.h).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "runner/job_usage.h"
#include "temp_dir.h"
#include "telemetry/run_metrics.h"

using namespace sweep;

TEST_CASE("job usage: figures given become metrics with units, absent ones stay absent") {
  sched::JobUsage u;
  u.cpu_time_s = 2.074;
  u.max_rss_mib = 216.25;
  u.req_mem = "1G";
  u.timelimit = "00:05:00";
  u.alloc_cpus = 2;
  store::AttemptResult r;
  std::vector<std::string> warnings;
  runner::add_usage("slurm", u, r, warnings);
  CHECK(warnings.empty());
  REQUIRE(r.metrics.size() == 2);  // no energy: the plugin gave none
  CHECK(r.metrics[0].name == "slurm_cpu_time_s");
  CHECK(r.metrics[0].unit == "s");
  CHECK(r.metrics[1].name == "slurm_max_rss_mib");
  CHECK(r.metrics[1].unit == "MiB");
  CHECK(r.metrics[1].value == 216.25);
  CHECK(r.provenance ==
        store::KeyValues{{"slurm.req_mem", "1G"}, {"slurm.timelimit", "00:05:00"}, {"slurm.alloc_cpus", "2"}});
  store::AttemptResult none;
  runner::add_usage("slurm", sched::JobUsage{}, none, warnings);
  CHECK(none.metrics.empty());
  CHECK(none.provenance.empty());
  u.energy_j = 6000;
  u.alloc_gpus = 4;
  store::AttemptResult all;
  runner::add_usage("slurm", u, all, warnings);
  CHECK(all.metrics.back().name == "slurm_energy_j");
  CHECK(all.provenance.back() == std::pair<std::string, std::string>{"slurm.alloc_gpus", "4"});
}

TEST_CASE("job usage: the requested resources recorded are those the efficiency view compares") {
  const auto p = runner::requested_provenance({{"time", "00:10:00", {}},
                                               {"partition", "debug", {}},
                                               {"mem", "2G", {}},
                                               {"cpus-per-task", "4", {}},
                                               {"gpus", "2", {}}});
  CHECK(p == store::KeyValues{{"resources.time", "00:10:00"},
                              {"resources.mem", "2G"},
                              {"resources.cpus-per-task", "4"},
                              {"resources.gpus", "2"}});
}

TEST_CASE("job usage: its metrics are the run's measurements, out of the default sets (telemetry/run_metrics.h)") {
  sched::JobUsage u;
  u.cpu_time_s = 1;
  u.max_rss_mib = 2;
  u.energy_j = 3;
  store::AttemptResult r;
  std::vector<std::string> warnings;
  runner::add_usage("slurm", u, r, warnings);
  REQUIRE(r.metrics.size() == 3);
  for (const auto& m : r.metrics) {
    INFO(m.name);
    CHECK(telemetry::is_run_metric(m.name));
  }
}

TEST_CASE("job usage: the workload's own slurm_cpu_time_s keeps its value, with a warning in ingest_warnings") {
  sched::JobUsage u;
  u.cpu_time_s = 2.5;
  u.max_rss_mib = 300;
  store::AttemptResult r;
  r.metrics.push_back({"slurm_cpu_time_s", 0, 1, "s", "lower"});
  r.provenance.emplace_back("ingest_warnings", "1");
  std::vector<std::string> warnings;
  runner::add_usage("slurm", u, r, warnings);
  REQUIRE(r.metrics.size() == 2);
  CHECK(r.metrics[0].name == "slurm_cpu_time_s");
  CHECK(r.metrics[0].value == 1);  // the workload's, not the scheduler's 2.5
  CHECK(r.metrics[1].name == "slurm_max_rss_mib");
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::Contains("reported its own slurm_cpu_time_s"));

  TempDir dir;
  std::ofstream(dir.file("ingest_warnings")) << "earlier warning\n";
  runner::add_warnings(dir.path.string(), warnings, r);
  std::ifstream in(dir.file("ingest_warnings"));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_THAT(text, Catch::StartsWith("earlier warning\n" + dir.path.string() + ": the workload reported its own slurm_cpu_time_s"));
  CHECK(r.provenance == store::KeyValues{{"ingest_warnings", "2"}});
}
