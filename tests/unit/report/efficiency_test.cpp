// Efficiency per point and the suggestions (report/efficiency.h, efficiency_render.h), on campaigns
// built from literals: used against requested, no request, no telemetry, one run, timed-out runs.
#include <catch2/catch.hpp>

#include "report/efficiency.h"
#include "report/efficiency_render.h"

using namespace sweep;
using namespace sweep::report;

namespace {

store::RunRecord run(std::int64_t id, const std::string& point, store::RunState state, std::optional<double> elapsed,
                     const std::string& failure_class = "") {
  store::RunRecord r;
  r.id = id;
  r.point_id = point;
  r.attempt = 1;
  r.state = state;
  r.elapsed_s = elapsed;
  r.failure_class = failure_class;
  return r;
}

CampaignData campaign() {
  CampaignData d;
  d.campaign.label = "c";
  d.campaign.executor = "slurm";
  d.points = {{"p0", 0, {{"n", "1", "int", false}}}, {"p1", 1, {{"n", "2", "int", false}}}};
  return d;
}

}  // namespace

TEST_CASE("efficiency: used against requested, Slurm's figures where telemetry is absent") {
  CampaignData d = campaign();
  const auto ok = store::RunState::succeeded;
  d.runs = {run(1, "p0", ok, 100), run(2, "p0", ok, 120), run(3, "p0", ok, 110), run(4, "p1", ok, 50)};
  for (std::int64_t id : {1, 2, 3})
    for (auto [k, v] : {std::pair{"resources.time", "00:10:00"},
                        {"resources.mem", "2G"},
                        {"slurm.alloc_cpus", "4"},
                        {"resources.gpus", "2"}})
      d.requests.push_back({id, 1, k, v});
  d.usage = {{1, "slurm_max_rss_mib", 500}, {2, "slurm_max_rss_mib", 700}, {3, "slurm_max_rss_mib", 600},
             {1, "slurm_cpu_time_s", 200},  {2, "slurm_cpu_time_s", 240},  {3, "peak_rss_mib", 650},
             {1, "gpu_util_mean", 80},      {2, "gpu_util_mean", 90}};
  const auto e = efficiency(d);
  REQUIRE(e.size() == 2);
  const PointEfficiency& p = e[0];
  CHECK(p.label == "n=1");
  CHECK(p.succeeded == 3);
  CHECK(p.time_s.mean == 110);
  CHECK(p.time_s.max == 120);
  CHECK(p.time.value == 600);
  CHECK(p.time.from == "resources.time");
  // peak_rss_mib (the sampler's) is preferred where a run has it: here only run 3 does.
  CHECK(p.mem_mib.from == "peak_rss_mib");
  CHECK(p.mem_mib.runs == 1);
  CHECK(p.mem.value == 2048);
  CHECK(p.cores.from == "slurm_cpu_time_s / elapsed_s");
  CHECK(p.cores.mean == 2);  // 200/100 and 240/120
  CHECK(p.cpus.value == 4);
  CHECK(p.cpus.from == "slurm.alloc_cpus");
  CHECK(p.gpu_util.mean == 85);
  CHECK(p.gpus.value == 2);
  CHECK(p.suggest_time == "00:03:00");  // p95 of 100, 110, 120 = 119 s, +25% = 148.75 s, up to 3 min
  CHECK(p.suggest_mem == "832M");       // the one run's 650 MiB +25% = 812.5, up to 64 MiB
  CHECK(p.escalate.empty());
  // No request recorded and no telemetry: said so, no numbers invented.
  const PointEfficiency& q = e[1];
  CHECK_FALSE(q.time.value);
  CHECK_FALSE(q.mem_mib.mean);
  CHECK(q.suggest_mem.empty());
  CHECK(q.suggest_time == "00:02:00");  // 50 s +25% up to a whole minute (at least one)
  CHECK(q.basis == "the one run (its p95 is that run)");
  const std::string text = efficiency_text(e);
  CHECK(text.find("memory  used not measured; requested not requested") != std::string::npos);
  CHECK(text.find("requested 00:10:00 (resources.time), max used 20% of it") != std::string::npos);
  CHECK(efficiency_markdown(e).find("## Efficiency") == 0);
  const std::string json = efficiency_json("c", e);
  CHECK(json.find(R"("memory": {"used": null, "requested": null, "unit": "MiB"})") != std::string::npos);
  CHECK(json.find(R"("version": 6)") != std::string::npos);
}

TEST_CASE("efficiency: timed-out and out-of-memory runs give starting values for escalate") {
  CampaignData d = campaign();
  d.points.pop_back();
  d.runs = {run(1, "p0", store::RunState::failed, 600, "timeout"),
            run(2, "p0", store::RunState::failed, 30, "out_of_memory"), run(3, "p0", store::RunState::succeeded, 400)};
  for (std::int64_t id : {1, 2, 3}) {
    d.requests.push_back({id, 1, "slurm.timelimit", "00:10:00"});
    d.requests.push_back({id, 1, "slurm.req_mem", "4000M"});
  }
  const auto e = efficiency(d);
  REQUIRE(e.size() == 1);
  CHECK(e[0].timed_out == 1);
  CHECK(e[0].out_of_memory == 1);
  CHECK(e[0].time.from == "slurm.timelimit");
  CHECK(e[0].mem.value == 4000);
  CHECK(e[0].escalate == std::vector<std::string>{"retries: {TIMEOUT: 2, OUT_OF_MEMORY: 2}",
                                                  "escalate:", "  time: {factor: 2, max: \"00:40:00\"}",
                                                  "  mem: {factor: 2, max: \"16000M\"}"});
  CHECK(e[0].time_s.runs == 1);  // the killed runs' times are not a measure of what they needed
}

TEST_CASE("efficiency: a local campaign is offered retries, not escalate, which it never applies") {
  CampaignData d = campaign();
  d.campaign.executor = "local";
  d.points.pop_back();
  d.runs = {run(1, "p0", store::RunState::failed, 600, "timeout"), run(2, "p0", store::RunState::succeeded, 400)};
  for (std::int64_t id : {1, 2}) d.requests.push_back({id, 1, "resources.time", "00:10:00"});
  const auto e = efficiency(d);
  REQUIRE(e.size() == 1);
  CHECK(e[0].escalate == std::vector<std::string>{"retries: {TIMEOUT: 2}",
                                                  "# no escalate: the local executor retries with the same time (escalate is for Slurm)"});
  d.campaign.executor = "slurm";  // the same campaign on Slurm: escalate
  CHECK(efficiency(d)[0].escalate.at(1) == "escalate:");
}

TEST_CASE("efficiency: percentiles and rounding of suggestions") {
  CHECK_FALSE(percentile({}, 95));
  CHECK(percentile({7}, 95) == 7);
  CHECK(percentile({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21}, 95) == 20);
  CHECK(percentile({10, 0}, 50) == 5);
  CHECK(suggested_time(1) == "00:01:00");
  CHECK(suggested_time(3600) == "01:15:00");
  CHECK(suggested_time(86400) == "1-06:00:00");
  CHECK(suggested_mem(10) == "64M");
  CHECK(suggested_mem(1000) == "2G");
  CHECK(suggested_mem(4096) == "5G");
}

TEST_CASE("efficiency: memory asked per CPU is compared in total and escalates per CPU") {
  CampaignData d = campaign();
  d.points.pop_back();
  d.runs = {run(1, "p0", store::RunState::failed, 30, "out_of_memory")};
  d.requests = {{1, 1, "resources.mem-per-cpu", "1G"}, {1, 1, "resources.cpus-per-task", "4"}};
  const auto e = efficiency(d);
  REQUIRE(e.size() == 1);
  CHECK(e[0].mem.value == 4096);
  CHECK(e[0].cpus.value == 4);
  CHECK_FALSE(e[0].time.value);
  CHECK(e[0].escalate == std::vector<std::string>{"retries: {OUT_OF_MEMORY: 2}",
                                                  "escalate:", "  mem-per-cpu: {factor: 2, max: \"4096M\"}"});
}

TEST_CASE("efficiency: memory asked per CPU counts every task on the node") {
  CampaignData d = campaign();
  d.points.pop_back();
  d.runs = {run(1, "p0", store::RunState::failed, 30, "out_of_memory")};
  d.requests = {{1, 1, "resources.mem-per-cpu", "1G"}, {1, 1, "resources.cpus-per-task", "2"},
                {1, 1, "resources.ntasks-per-node", "8"}};
  CHECK(efficiency(d)[0].mem.value == 16384);  // 1 GiB x 2 CPUs x 8 tasks on one node
  d.requests = {{1, 1, "resources.mem-per-cpu", "1G"}, {1, 1, "resources.ntasks", "8"}, {1, 1, "resources.nodes", "2"}};
  CHECK(efficiency(d)[0].mem.value == 4096);  // 8 tasks over 2 nodes: 4 a node
}
