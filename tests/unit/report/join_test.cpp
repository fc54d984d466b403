// A report's join (report/join.h): seed 000's recalculated training time, built from two campaigns: the
// training runs (e15: GPT-2 Large, single-GPU epoch 498.37 s, 1,108 steps on 2 GPUs) and the all-reduce
// benchmark (e16: one all-reduce of 700M bf16 parameters, 0.12 s, carried as seconds from microseconds).
#include <catch2/catch.hpp>
#include <fmt/core.h>

#include "campaign_fixture.h"
#include "report/declared_tables.h"
#include "report/join.h"
#include "report/predicted.h"
#include "spec/load_report.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::report;

namespace {

store::PointRecord point(const std::string& id, int nodes, const std::string& backend) {
  return {id, nodes, {{"nodes", std::to_string(nodes), "int", false}, {"backend", backend, "string", false}}};
}

/// e15: nodes 1 (2,216 steps) and 2 (DP 2, 1,108 steps), 3 runs each.
CampaignData training() {
  CampaignData d;
  d.campaign.label = "e15";
  for (int nodes : {1, 2}) {
    d.points.push_back(point(fmt::format("t{}", nodes), nodes, "nccl"));
    for (int rep = 0; rep < 3; ++rep) {
      const auto r = fixture::add_run(d, d.points.back().point_id, rep);
      fixture::add_value(d, r, "epoch_time_headline", nodes == 1 ? 498.27 + 0.1 * rep : 406.12, "s");
      fixture::add_value(d, r, "parameters_without_embeddings", 708e6);
      fixture::add_value(d, r, "dp", nodes);
      fixture::add_value(d, r, "batch", 8);
      fixture::add_value(d, r, "steps_per_epoch", nodes == 1 ? 2216 : 1108);
    }
  }
  return d;
}

/// e16: the 2x1 all-reduce with nccl (119, 120 and 121 ms) and with gloo (1.7 s).
CampaignData allreduce() {
  CampaignData d;
  d.campaign.label = "e16";
  for (const std::string backend : {"nccl", "gloo"}) {
    d.points.push_back(point("a-" + backend, 2, backend));
    for (int rep = 0; rep < 3; ++rep) {
      const auto r = fixture::add_run(d, d.points.back().point_id, rep);
      fixture::add_value(d, r, "time_us", backend == "nccl" ? 119000.0 + 1000 * rep : 1.7e6, "us", "lower");
    }
  }
  return d;
}

spec::ReportJoin join_of(const std::string& on) {
  const auto spec = spec::report_of_experiment(R"(report:
  join:
    experiment: e15
    on: )" + on + R"(
    metrics:
      - {metric: time_us, as: allreduce_time, scale: 1.0e-6, unit: s}
)" + "    model:\n" + fixture::seed_model_fields(6) + R"(      allreduce: allreduce_time
    tables:
      - name: recalculated
        columns: [{param: nodes}, {metric: allreduce_time}, {predicted: epoch_time}, {metric: epoch_time_headline}]
)",
                                               "r.yaml");
  REQUIRE(spec.join);
  return *spec.join;
}

}  // namespace

TEST_CASE("join: seed 000's recalculated time from the training and the all-reduce campaigns") {
  const CampaignData e15 = training(), e16 = allreduce();
  const auto here = point_results(e16);
  auto there = point_results(e15);
  const spec::ReportJoin join = join_of("[nodes, backend]");
  carry_metrics(here, there, join);
  CHECK_FALSE(there[0].metrics.contains("allreduce_time"));  // no all-reduce on one GPU
  const MetricStats& carried = there[1].metrics.at("allreduce_time");
  CHECK(carried.unit == "s");
  CHECK(carried.better == "lower");
  CHECK(carried.summary.n == 3);
  CHECK(carried.summary.mean == Approx(0.12));
  CHECK(carried.values[2] == Approx(0.121));

  add_predictions(there, join.model);
  // "1,108 · 0.12 s = 132.96 s; Total estimated time: 249.19 s + 132.96 s = 382.15 s" (the seed rounds
  // the half of 498.37 s up).
  CHECK(there[1].metrics.at("model:comm_time").summary.mean == Approx(132.96));
  CHECK(there[1].metrics.at("model:epoch_time").summary.mean == Approx(382.145).margin(0.01));
  const auto tables = build_declared(there, join.tables[0]);
  REQUIRE(tables.size() == 1);
  CHECK(tables[0].cells[1][0].stats.summary.mean == Approx(0.12));
  CHECK(tables[0].cells[1][2].stats.summary.mean == Approx(406.12));
}

TEST_CASE("join: mistakes are reported at the join") {
  const CampaignData e15 = training(), e16 = allreduce();
  const auto here = point_results(e16);
  auto there = point_results(e15);
  const auto fails = [&](const spec::ReportJoin& join) {
    try {
      carry_metrics(here, there, join);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // Both backends' all-reduce match the 2-GPU training point when backend is left out of `on`.
  CHECK_THAT(fails(join_of("[nodes]")), Catch::Contains("r.yaml:3:5: join: point t2 of the joined campaign matches points "
                                                        "a-nccl and a-gloo here; add the parameters that tell them apart"));
  CHECK_THAT(fails(join_of("[nodes, model]")),
             Catch::StartsWith("r.yaml:3:5: join: this campaign: unknown parameter to join on \"model\""));
  spec::ReportJoin wrong_metric = join_of("[nodes, backend]");
  wrong_metric.metrics[0].metric = "time_s";
  CHECK_THAT(fails(wrong_metric), Catch::StartsWith("r.yaml:6:9: join: unknown metric to carry \"time_s\""));
  spec::ReportJoin taken = join_of("[nodes, backend]");
  taken.metrics[0].as = "dp";
  CHECK(fails(taken) == "r.yaml:6:9: join: the joined campaign already has a metric \"dp\"; carry it \"as\" another name");
}
