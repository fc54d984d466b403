// Energy per step at each point: the joules (energy_j, else gpu_energy_j) over the steps by the first
// rule that applies, communication attributed by the model's predicted share, "not measured" without.
#include "report/energy_per_step.h"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

using namespace sweep;
using namespace sweep::report;

namespace {

MetricStats metric(double mean, std::size_t indices = 0) {
  MetricStats m;
  m.summary.n = 2;
  m.summary.mean = mean;
  for (std::size_t i = 0; i < indices; ++i) m.by_index.push_back({static_cast<std::int64_t>(i), m.summary});
  return m;
}

struct Fixture {
  store::PointRecord p1{"p1", 0, {{"nodes", "1", "int", false}}}, p2{"p2", 1, {{"nodes", "2", "int", false}}},
      p3{"p3", 2, {{"nodes", "4", "int", false}}};
  std::vector<PointResult> results{{&p1, {}, 2, 0, 0}, {&p2, {}, 2, 0, 0}, {&p3, {}, 2, 0, 0}};
};

}  // namespace

TEST_CASE("energy per step: energy_j over steps_per_epoch x epochs, communication by the predicted time share") {
  Fixture f;
  auto& m = f.results[0].metrics;
  m["energy_j"] = metric(12000);
  m["gpu_energy_j"] = metric(9000);
  m["steps_per_epoch"] = metric(20);
  m["epoch_time"] = metric(5, 3);  // 3 epochs: 60 steps
  m["model:comm_time"] = metric(1);
  m["model:epoch_time"] = metric(4);
  f.results[1].metrics["gpu_energy_j"] = metric(500);
  f.results[1].metrics["step_time_mean"] = metric(0.5);
  f.results[1].metrics["telemetry_span_s"] = metric(10);
  const auto lines = energy_lines(f.results);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].point == "nodes=1");
  CHECK(lines[0].text == "energy: 200 J per step measured (energy_j, over 60 steps: steps_per_epoch × 3 epochs); communication "
                         "costs 50 J per step (25.0% of it, attributed by the predicted time share: the counters cannot split "
                         "joules by activity)");
  // gpu_energy_j when energy_j is absent; no step count: the average power (50 W) times the mean step time.
  CHECK(lines[1].text == "energy: 25 J per step measured (gpu_energy_j, average power over telemetry_span_s × step_time_mean 0.5 s)");
  CHECK(lines[2].text == "energy: not measured");
  const std::string md = energy_markdown(lines);
  CHECK_THAT(md, Catch::Contains("## Energy per step\n\n- nodes=1: energy: 200 J per step"));
  CHECK_THAT(energy_html(lines), Catch::Contains("<li>nodes=4: energy: not measured</li>"));
  // report.json's "energy": the numbers of each line and where they came from; null where not measured.
  const auto j = nlohmann::json::parse(energy_json(lines));
  REQUIRE(j.size() == 3);
  CHECK(j[0]["point"] == "p1");
  CHECK(j[0]["label"] == "nodes=1");
  CHECK(j[0]["per_step_j"] == 200);
  CHECK(j[0]["comm_share"] == 0.25);
  CHECK(j[0]["comm_per_step_j"] == 50);
  CHECK(j[0]["joules_from"] == "energy_j");
  CHECK(j[0]["steps_from"] == "over 60 steps: steps_per_epoch × 3 epochs");
  CHECK(j[1]["per_step_j"] == 25);
  CHECK(j[1]["comm_share"].is_null());  // no model at this point
  CHECK(j[1]["joules_from"] == "gpu_energy_j");
  CHECK(j[2]["per_step_j"].is_null());
  CHECK(j[2]["joules_from"].is_null());
  CHECK(j[2]["text"] == "energy: not measured");
}

TEST_CASE("energy per step: joules without steps say so, no joules is said once, and no joules and no model: no section") {
  Fixture f;
  CHECK(energy_lines(f.results).empty());
  f.results[2].metrics["model:epoch_time"] = metric(4);  // a model, but no joules anywhere: one line
  const auto none = energy_lines(f.results);
  REQUIRE(none.size() == 1);
  CHECK(none[0].point == "every point");
  CHECK(none[0].text == "energy: not measured (no run has energy_j or gpu_energy_j)");
  CHECK(energy_json(none) == "null");  // no point has joules: no point's figures
  CHECK(energy_json({}) == "null");
  f.results[0].metrics["energy_j"] = metric(100);
  const auto lines = energy_lines(f.results);
  CHECK_THAT(lines[0].text, Catch::StartsWith("energy: not measured per step (energy_j 100 J, but no steps"));
  const auto j = nlohmann::json::parse(energy_json(lines));
  CHECK(j[0]["joules_from"] == "energy_j");  // joules, but no steps
  CHECK(j[0]["steps_from"].is_null());
  CHECK(j[0]["per_step_j"].is_null());
  f.results[0].metrics["steps"] = metric(4);
  CHECK_THAT(energy_lines(f.results)[0].text, Catch::StartsWith("energy: 25 J per step measured (energy_j, over 4 steps)"));
}
