// The report's model at every point: seed 000's hand calculation (GPT-2 Large, 708M parameters in bf16,
// DDP on 2 GPUs over InfiniBand HDR, 1,108 steps, single-GPU epoch 498.37 s) reproduced from a campaign's
// metrics, predicted columns and figures, and the errors that point at the report's model section.
#include <catch2/catch.hpp>
#include <fmt/core.h>

#include "campaign_fixture.h"
#include "report/declared_tables.h"
#include "report/figure.h"
#include "report/predicted.h"
#include "spec/load_report.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::report;
using store::RunState;

namespace {

/// Seed 000's setup: nodes 1 (one GPU, 2,216 steps of batch 8) and 2 (DP 2, 1,108 steps each).
/// The single-GPU epoch takes 498.27, 498.37 and 498.47 s; one all-reduce measured 0.12 s.
CampaignData seed_campaign(const std::string& extra_metric = "") {
  CampaignData d;
  d.campaign.label = "e15";
  for (int nodes : {1, 2}) {
    const std::string id = fmt::format("p{}", nodes);
    d.points.push_back({id, nodes, {{"nodes", std::to_string(nodes), "int", false}, {"link", "ib-hdr", "string", false}}});
    for (int rep = 0; rep < 3; ++rep) {
      const auto r = fixture::add_run(d, id, rep);
      const auto metric = [&](const char* name, double value, const char* unit = "") {
        fixture::add_value(d, r, name, value, unit);
      };
      metric("epoch_time_headline", nodes == 1 ? 498.27 + 0.1 * rep : 406.12, "s");
      metric("parameters_without_embeddings", 708e6);
      metric("dp", nodes);
      metric("batch", 8);
      metric("steps_per_epoch", nodes == 1 ? 2216 : 1108);
      metric("allreduce_s", 0.12, "s");
      if (!extra_metric.empty()) metric(extra_metric.c_str(), 1);
    }
  }
  return d;
}

spec::ReportSpec spec_of(const std::string& yaml) { return spec::report_of_experiment(yaml, "r.yaml"); }

const std::string kSeedModel = "report:\n  model:\n" + fixture::seed_model_fields(4);

const MetricStats& metric(const PointResult& r, const std::string& name) {
  const auto it = r.metrics.find(name);
  REQUIRE(it != r.metrics.end());
  return it->second;
}

std::vector<PointResult> predicted(const CampaignData& d, const std::string& yaml) {
  auto results = point_results(d);
  add_predictions(results, spec_of(yaml).model);
  return results;
}

}  // namespace

TEST_CASE("report model: seed 000's InfiniBand HDR estimate from the campaign's metrics") {
  const auto d = seed_campaign();
  const auto results = predicted(d, kSeedModel);
  // "Estimated Time with InfiniBand HDR: 249.19 s + 125.6 s = 374.79 s" (latency 0.6 µs adds 1.3 ms).
  const MetricStats& epoch = metric(results[1], "model:epoch_time");
  CHECK(epoch.summary.mean == Approx(374.79).margin(0.1));
  CHECK(epoch.unit == "s");
  CHECK(epoch.summary.n == 3);
  CHECK(epoch.summary.ci_low < epoch.summary.mean);
  CHECK(epoch.summary.ci_high > epoch.summary.mean);
  CHECK(metric(results[1], "model:compute_time").summary.mean == Approx(249.185));
  CHECK(metric(results[1], "model:scaling_factor").summary.mean == Approx(498.37 / (2 * epoch.summary.mean)));
  // 2·(2-1)/2 · 708M · 2 bytes per step and rank.
  CHECK(metric(results[1], "model:bytes_per_step").summary.mean == Approx(1.416e9));
  // The baseline itself: one GPU, no communication, the measured time.
  CHECK(metric(results[0], "model:epoch_time").summary.mean == Approx(498.37));
  CHECK(metric(results[0], "model:bytes_per_step").summary.mean == 0);
}

TEST_CASE("report model: the measured all-reduce replaces the alpha-beta estimate, the link may be a parameter") {
  const auto d = seed_campaign();
  const auto results = predicted(d, R"(report:
  model:
    baseline: {nodes: 1}
    time: epoch_time_headline
    link: link
    dtype: bf16
    parameters: parameters_without_embeddings
    allreduce: allreduce_s
)");
  // "1,108 · 0.12 s = 132.96 s; Total estimated time: 249.19 s + 132.96 s = 382.15 s".
  CHECK(metric(results[1], "model:epoch_time").summary.mean == Approx(382.15).margin(0.005));
  CHECK(metric(results[1], "model:comm_time").summary.mean == Approx(132.96));
}

TEST_CASE("report model: a site's interconnect is a link like the built-in ones, and replaces one of its name") {
  const auto d = seed_campaign();
  std::string yaml = kSeedModel;
  yaml.replace(yaml.find("link: ib-hdr"), 12, "link: lab-ib");
  auto results = point_results(d);
  CHECK_THROWS_WITH(add_predictions(results, spec_of(yaml).model), Catch::Contains("\"lab-ib\" is not an interconnect"));
  // Half of HDR's 25 GB/s doubles the transfer: 2 x 125.6 s instead of 125.6 s after 249.19 s of compute.
  model::Interconnect lab{"lab-ib", "our link", 12.5, 0.6, "site"};
  results = point_results(d);
  add_predictions(results, spec_of(yaml).model, {lab});
  CHECK(metric(results[1], "model:epoch_time").summary.mean == Approx(249.19 + 2 * 125.6).margin(0.2));
  lab.name = "ib-hdr";
  results = point_results(d);
  add_predictions(results, spec_of(kSeedModel).model, {lab});
  CHECK(metric(results[1], "model:epoch_time").summary.mean == Approx(249.19 + 2 * 125.6).margin(0.2));
}

TEST_CASE("report model: a wider epoch counts as more work than the single-GPU one") {
  // Weak scaling as trainbench runs it: the same steps of the same per-rank batch on 2 ranks is twice
  // the single-GPU work, so the compute part stays at the single-GPU epoch.
  const auto d = seed_campaign();
  const auto results = predicted(d, R"(report:
  model: {baseline: {nodes: 1}, time: epoch_time_headline, bandwidth: 25, dtype: bf16, steps: 1108,
          parameters: parameters_without_embeddings}
)");
  CHECK(metric(results[1], "model:compute_time").summary.mean == Approx(498.37));
}

TEST_CASE("report model: a baseline that ignores a parameter is shared by the points that differ in it") {
  // The 1-node point runs as dp, the 2-node one as tp: only ignoring parallelism pairs them.
  auto d = seed_campaign();
  d.points[0].params.push_back({"parallelism", "dp", "string", false});
  d.points[1].params.push_back({"parallelism", "tp", "string", false});
  const std::string model = "time: epoch_time_headline, bandwidth: 25, dtype: bf16, steps: 1108, "
                            "parameters: parameters_without_embeddings}\n";
  const auto own = predicted(d, "report:\n  model: {baseline: {nodes: 1}, " + model);
  CHECK_FALSE(own[1].metrics.count("model:compute_time"));
  const auto shared = predicted(d, "report:\n  model: {baseline: {match: {nodes: 1}, ignore: [parallelism]}, " + model);
  CHECK(metric(shared[1], "model:compute_time").summary.mean == Approx(498.37));
}

TEST_CASE("report model: predicted columns and model figures show the predictions") {
  const auto d = seed_campaign();
  const std::string yaml = kSeedModel + R"(  tables:
    - name: predicted
      columns:
        - {param: nodes, label: Nodes}
        - {metric: epoch_time_headline, label: Measured (s)}
        - {predicted: epoch_time}
        - {predicted: scaling_factor, digits: 3}
  figures:
    - {name: model, kind: model, x: nodes, y: epoch_time_headline, predicted: "model:epoch_time"}
)";
  const auto spec = spec_of(yaml);
  auto results = point_results(d);
  add_predictions(results, spec.model);
  const Table t = build_declared(results, spec.tables[0]).at(0);
  CHECK(t.columns == std::vector<std::string>{"Measured (s)", "predicted epoch_time (s)", "predicted scaling_factor"});
  REQUIRE(t.cells.size() == 2);
  CHECK(format_cell(t.cells[1][1], Spread::none, false) == "374.7");  // the seed rounds the volume first: 374.79
  CHECK(format_cell(t.cells[1][2], Spread::none, false) == "0.665");
  const FigureText f = build_figure(results, spec.figures[0], "e15");
  CHECK(f.data.find("374.") != std::string::npos);
  CHECK(f.script.find("(predicted)") != std::string::npos);
}

TEST_CASE("report model: mistakes are reported at the model section") {
  const auto d = seed_campaign();
  const auto fails = [&](const std::string& yaml, const std::string& message) {
    auto results = point_results(d);
    const auto spec = spec_of(yaml);
    CHECK_THROWS_WITH(add_predictions(results, spec.model), Catch::Contains(message));
  };
  fails("report:\n  model: {baseline: {nodes: 1}, time: epoch_time_headlin, link: ib-hdr}\n",
        "r.yaml:2:10: the model's time \"epoch_time_headlin\" is not a metric of the campaign (did you mean \"epoch_time_headline\"?)");
  fails("report:\n  model:\n    baseline: {nodes: 1}\n    time: epoch_time_headline\n    link: ib-hdr\n    parameters: nparams\n",
        "r.yaml:6:17: model.parameters: \"nparams\" is neither a parameter nor a metric of the campaign");
  fails("report:\n  model: {baseline: {nodes: 1}, time: epoch_time_headline, link: ib-hdrr, parameters: parameters_without_embeddings}\n",
        "the model's link \"ib-hdrr\" is not an interconnect (did you mean \"ib-hdr\"?)");
  fails("report:\n  model: {baseline: {node: 1}, time: epoch_time_headline, link: ib-hdr, parameters: parameters_without_embeddings}\n",
        "r.yaml:2:21: unknown baseline parameter \"node\"");  // at the baseline itself
  fails("report:\n  model: {baseline: {nodes: 1}, time: epoch_time_headline, link: ib-hdr, dtype: int3, parameters: parameters_without_embeddings}\n",
        "the model's dtype \"int3\" is not bf16, fp16, fp32 or fp64");
  // The default `parameters` is trainbench's metric, which this campaign lacks.
  fails("report:\n  model: {baseline: {nodes: 1}, time: epoch_time_headline, link: ib-hdr}\n",
        "r.yaml:2:10: the model needs \"parameters\": the campaign has no metric \"parameters\" to take it from");
  const auto clashing = seed_campaign("model:epoch_time");
  auto results = point_results(clashing);
  CHECK_THROWS_WITH(add_predictions(results, spec_of(kSeedModel).model),
                    Catch::Contains("the campaign has a metric \"model:epoch_time\"; names beginning \"model:\" are the model's"));
}
