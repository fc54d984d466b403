// The view of a set of points that the analyses share (report/points_view.h): typed parameter values,
// the parameter names, which of them vary, the metric names and the metrics per message size.
#include <catch2/catch.hpp>

#include <cmath>

#include "campaign_fixture.h"
#include "report/points_view.h"
#include "report/presets.h"
#include "report/table.h"

using namespace sweep;
using namespace sweep::report;

namespace {

/// Four points of nodes x backend (nodes varies, backend varies, steps is one value everywhere, ranks is
/// derived), each with a run: time at every point, busbw only where backend is "nccl".
CampaignData grid() {
  CampaignData d;
  for (const char* nodes : {"1", "2"})
    for (const char* backend : {"gloo", "nccl"}) {
      const std::string id = std::string("p") + nodes + backend;
      d.points.push_back({id, static_cast<std::int64_t>(d.points.size()),
                          {{"nodes", nodes, "int", false}, {"backend", backend, "string", false},
                           {"steps", "1000", "int", false}, {"ranks", std::to_string(4 * std::stoi(nodes)), "int", true}}});
      const auto r = fixture::add_run(d, id, 0);
      fixture::add_value(d, r, "time", std::stoi(nodes) * 10.0, "s", "lower");
      if (backend[1] == 'c') fixture::add_value(d, r, "busbw", 5, "GB/s", "higher");
    }
  return d;
}

}  // namespace

TEST_CASE("a parameter's typed value follows its stored type") {
  CHECK(param_value({"n", "8", "int", false}) == Value(std::int64_t{8}));
  CHECK(param_value({"lr", "0.1", "float", false}) == Value(0.1));
  CHECK(param_value({"on", "true", "bool", false}) == Value(true));
  CHECK(param_value({"b", "8", "string", false}) == Value(std::string("8")));  // a string of digits stays text
  CHECK(param_number({"n", "-3", "int", false}) == -3.0);
  CHECK(param_number({"lr", "1e-05", "float", false}) == 1e-05);
  CHECK(param_number({"x", "inf", "float", false}) == HUGE_VAL);
  CHECK(param_number({"x", "1e-310", "float", false}) == 1e-310);  // subnormal: std::stod threw out_of_range
  CHECK(std::isnan(*param_number({"x", "nan", "float", false})));
  CHECK_FALSE(param_number({"on", "true", "bool", false}));
  CHECK_FALSE(param_number({"b", "8", "string", false}));
}

TEST_CASE("the view holds the parameter names, which vary and the metric names") {
  const CampaignData d = grid();
  const auto results = point_results(d);
  const PointsView view(results);
  CHECK(&view.results == &results);
  CHECK(view.params == std::vector<std::string>{"nodes", "backend", "steps", "ranks"});
  CHECK(view.varying == std::vector<std::string>{"nodes", "backend"});  // not steps (one value) nor ranks (derived)
  CHECK(view.metrics == std::vector<std::string>{"busbw", "time"});
  CHECK(view.size_indexed.empty());
  CHECK(view.has_param("steps"));
  CHECK_FALSE(view.has_param("time"));
  CHECK(view.has_metric("busbw"));
  CHECK_FALSE(view.has_metric("nodes"));
}

TEST_CASE("a view of one point lists every non-derived parameter as varying") {
  const CampaignData d = grid();
  auto results = point_results(d);
  results.resize(1);
  const PointsView view(results);
  CHECK(view.varying == std::vector<std::string>{"nodes", "backend", "steps"});
  CHECK(view.metrics == std::vector<std::string>{"time"});
  const std::vector<PointResult> none;
  const PointsView empty(none);
  CHECK(empty.params.empty());
  CHECK(empty.varying.empty());
  CHECK(empty.metrics.empty());
}

TEST_CASE("a point's parameters as text, and a number at a point") {
  const CampaignData d = grid();
  const auto results = point_results(d);
  const store::PointRecord& p = *results[3].point;
  CHECK(param_text(p, {"backend", "missing", "nodes"}, " ") == "backend=nccl nodes=2");
  CHECK(param_label(results[3], {"nodes", "steps"}) == "nodes=2, steps=1000");
  CHECK(point_label(p) == "nodes=2 backend=nccl steps=1000");  // the derived ranks left out
  CHECK(number_at(results[3], "ranks") == 8.0);
  CHECK(number_at(results[3], "time") == 20.0);  // a metric's mean where no parameter has the name
  CHECK_FALSE(number_at(results[3], "backend"));  // a string parameter is no number, nor a metric
  CHECK_FALSE(number_at(results[0], "busbw"));    // gloo has no busbw
}

TEST_CASE("tables built from one view equal tables built from the bare points") {
  const CampaignData d = grid();
  const auto results = point_results(d);
  const PointsView view(results);
  const TableSpec spec{{}, {"backend"}, {}};
  const auto from_view = build_tables(view, spec), from_points = build_tables(results, spec);
  REQUIRE(from_view.size() == 2);
  REQUIRE(from_points.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(from_view[i].title == from_points[i].title);
    CHECK(from_view[i].row_names == std::vector<std::string>{"nodes"});
    CHECK(from_view[i].row_values == from_points[i].row_values);
    CHECK(from_view[i].columns == from_points[i].columns);
  }
  CHECK_THROWS_WITH(build_tables(view, TableSpec{{"nodez"}, {}, {}}), Catch::Contains("did you mean \"nodes\""));
}

TEST_CASE("a float parameter at a subnormal value is a number to every analysis") {
  CampaignData d;
  for (const char* lr : {"0.5", "1e-310"}) {
    d.points.push_back({std::string("p") + lr, static_cast<std::int64_t>(d.points.size()), {{"lr", lr, "float", false}}});
    fixture::add_value(d, fixture::add_run(d, d.points.back().point_id, 0), "loss", 2);
  }
  const auto results = point_results(d);
  CHECK(number_at(results[1], "lr") == 1e-310);
  // The default figure's axis: lr is numeric and spans 100x or more (std::stod threw here before).
  const auto figures = default_figures(results);
  REQUIRE(figures.size() == 1);
  CHECK(figures[0].kind == spec::FigureKind::lines);
  CHECK(figures[0].x == "lr");
  CHECK(figures[0].log_x);
}
