// The baseline rule (report/baseline.h) and its consumers: derived columns, scaling figures and the
// default scaling table, over campaigns whose 1x1 point is shared by every parallelism or repeated.
#include <catch2/catch.hpp>
#include <fmt/core.h>

#include "campaign_fixture.h"
#include "report/baseline.h"
#include "report/declared_tables.h"
#include "report/figure.h"
#include "report/presets.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::report;

namespace {

/// Models a and b, each with one 1x1 point (parallelism dp, throughput 100) and dp, tp and pp points
/// on 1x2 and 2x2, whose throughput is 100·n·eff with eff 0.9, 0.8 and 0.7: the scaling factor is eff.
/// `repeated_1x1` adds the 1x1 point of tp and pp too, as campaigns did before shared baselines.
CampaignData parallelism_campaign(bool repeated_1x1 = false) {
  CampaignData d;
  d.campaign.label = "par";
  const std::vector<std::pair<const char*, double>> kinds{{"dp", 0.9}, {"tp", 0.8}, {"pp", 0.7}};
  const std::vector<std::pair<const char*, const char*>> topologies{{"1", "1"}, {"1", "2"}, {"2", "2"}};
  std::int64_t ordinal = 0;
  for (const char* model : {"a", "b"})
    for (const auto& [parallelism, eff] : kinds)
      for (const auto& [nodes, gpus] : topologies) {
        const double n = std::stod(nodes) * std::stod(gpus);
        if (n == 1 && std::string(parallelism) != "dp" && !repeated_1x1) continue;
        const std::string id = fmt::format("p{}", ordinal);
        d.points.push_back({id, ordinal++, {{"model", model, "string", false}, {"parallelism", parallelism, "string", false},
                                            {"nodes", nodes, "int", false}, {"gpus_per_node", gpus, "int", false},
                                            {"setup", fmt::format("{}x{}", nodes, gpus), "string", true}}});
        for (int rep = 0; rep < 2; ++rep) {
          const auto r = fixture::add_run(d, id, rep);
          fixture::add_value(d, r, "samples_per_s", n == 1 ? 100 : 100 * n * eff, "samples/s", "higher");
          fixture::add_value(d, r, "comm_bytes_per_step", n == 1 ? 0 : 1e6, "B", "lower");
        }
      }
  return d;
}

spec::Baseline shared_1x1() { return {{{"nodes", "1"}, {"gpus_per_node", "1"}}, {"parallelism"}, {"x.yaml", 12, 17}}; }

/// The row of `table` whose labels are `labels`, or nullptr.
const std::vector<Cell>* row(const Table& table, const std::vector<std::string>& labels) {
  for (std::size_t i = 0; i < table.row_values.size(); ++i)
    if (table.row_values[i] == labels) return &table.cells[i];
  return nullptr;
}

spec::ReportColumn param_column(const char* name) {
  spec::ReportColumn c;
  c.param = name;
  return c;
}

spec::ReportColumn scaling_column() {
  spec::ReportColumn c;
  c.metric = "samples_per_s";
  c.derived = spec::DerivedMetric::scaling;
  return c;
}

}  // namespace

TEST_CASE("baseline: ignoring parallelism, the one 1x1 point of a model serves its DP, TP and PP points") {
  const auto d = parallelism_campaign();
  const auto results = point_results(d);
  // Points of model a: 0 = dp 1x1, 1 = dp 1x2, 2 = dp 2x2, 3 = tp 1x2, 4 = tp 2x2, 5 = pp 1x2, 6 = pp 2x2.
  const auto bases = baseline_indices(results, shared_1x1());
  REQUIRE(bases.size() == 14);
  for (std::size_t i = 0; i < 7; ++i) CHECK(bases[i] == std::size_t{0});
  for (std::size_t i = 7; i < 14; ++i) CHECK(bases[i] == std::size_t{7});  // model b's own 1x1 point
}

TEST_CASE("baseline: the short form matches every other parameter, so TP and PP find no 1x1 point") {
  const auto d = parallelism_campaign();
  const auto results = point_results(d);
  const spec::Baseline own{{{"nodes", "1"}, {"gpus_per_node", "1"}}, {}, {}};
  const auto bases = baseline_indices(results, own);
  CHECK(bases[2] == std::size_t{0});
  CHECK_FALSE(bases[3]);
  CHECK_FALSE(bases[6]);
  CHECK(describe(own) == "{nodes: 1, gpus_per_node: 1}");
  CHECK(describe(shared_1x1()) == "{nodes: 1, gpus_per_node: 1} ignoring [parallelism]");
}

TEST_CASE("baseline: two points that could both serve are a conflict, reported at the table's baseline") {
  const auto d = parallelism_campaign(true);
  const auto results = point_results(d);
  // Model a: 0 = dp 1x1, 1 = dp 1x2, 2 = dp 2x2, 3 = tp 1x1, ...: dp's and tp's 1x1 points compete for dp 1x2.
  const BaselineMatches m = match_baselines(results, shared_1x1());
  REQUIRE(m.conflict);
  CHECK(m.conflict->first == 0);
  CHECK(m.conflict->second == 3);
  CHECK(m.conflict->point == 1);
  CHECK(m.of.empty());
  spec::ReportTable t;
  t.name = "scaling";
  t.at = {"x.yaml", 9, 7};
  t.baseline = shared_1x1();
  t.columns = {param_column("parallelism"), scaling_column()};
  CHECK_THROWS_WITH(build_declared(results, t),
                    "x.yaml:12:17: baseline {nodes: 1, gpus_per_node: 1} ignoring [parallelism] is ambiguous: points "
                    "\"model=a parallelism=dp nodes=1 gpus_per_node=1\" and \"model=a parallelism=tp nodes=1 gpus_per_node=1\" "
                    "could both be the baseline of \"model=a parallelism=dp nodes=1 gpus_per_node=2\"; add the parameter "
                    "that tells them apart to \"match\", take it out of \"ignore\", or run only one of them (an exclude in "
                    "the matrix)");
  t.baseline.at = {};  // a baseline without a place of its own: its table's
  CHECK_THROWS_WITH(build_declared(results, t), Catch::StartsWith("x.yaml:9:7: baseline {nodes: 1, gpus_per_node: 1} ignoring"));
  // Matching parallelism again tells them apart.
  CHECK_FALSE(match_baselines(results, {{{"nodes", "1"}, {"gpus_per_node", "1"}}, {}, {}}).conflict);
}

TEST_CASE("baseline: an ignored name must be a parameter of the campaign") {
  const auto d = parallelism_campaign();
  const auto results = point_results(d);
  spec::Baseline b = shared_1x1();
  b.ignore = {"paralelism"};
  CHECK_THROWS_WITH(baseline_indices(results, b), Catch::StartsWith("unknown baseline parameter \"paralelism\""));
}

TEST_CASE("baseline: derived columns and scaling figures show S_n of DP, TP and PP against the shared 1x1 point") {
  const auto d = parallelism_campaign();
  const auto results = point_results(d);
  spec::ReportTable t;
  t.name = "scaling";
  t.where = {{"model", "a"}};
  t.baseline = shared_1x1();
  t.columns = {param_column("parallelism"), param_column("setup"), scaling_column()};
  const auto tables = build_declared(results, t);
  REQUIRE(tables.size() == 1);
  for (const auto& [parallelism, setup, s] : std::vector<std::tuple<const char*, const char*, double>>{
           {"dp", "1x1", 1.0}, {"dp", "2x2", 0.9}, {"tp", "1x2", 0.8}, {"tp", "2x2", 0.8}, {"pp", "2x2", 0.7}}) {
    const auto* cells = row(tables[0], {parallelism, setup});
    REQUIRE(cells);
    REQUIRE(cells->at(0).present);
    CHECK(cells->at(0).stats.summary.mean == Approx(s));
  }
  spec::ReportFigure g;
  g.name = "scaling";
  g.kind = spec::FigureKind::scaling;
  g.x = "setup";
  g.y = "samples_per_s";
  g.series = {"parallelism"};
  g.where = {{"model", "a"}};
  g.baseline = shared_1x1();
  std::vector<PointResult> model_a(results.begin(), results.begin() + 7);
  const FigureText f = build_figure(model_a, g, "par");
  CHECK(f.points == 7);  // every point has its scaling factor; none lacks a baseline
  g.baseline.ignore.clear();
  CHECK(build_figure(model_a, g, "par").points == 3);  // matching parallelism too: only DP's points scale
}

TEST_CASE("baseline: a table or figure that selects TP points alone still finds the 1x1 point it left out") {
  const auto d = parallelism_campaign();
  const auto results = point_results(d);
  spec::ReportTable t;
  t.name = "tp";
  t.where = {{"model", "b"}, {"parallelism", "tp"}};
  t.baseline = shared_1x1();
  t.columns = {param_column("setup"), scaling_column()};
  const auto tables = build_declared(results, t);
  REQUIRE(tables[0].row_values.size() == 2);
  const auto* cells = row(tables[0], {"2x2"});
  REQUIRE(cells);
  REQUIRE(cells->at(0).present);
  CHECK(cells->at(0).stats.summary.mean == Approx(0.8));
  spec::ReportFigure g;
  g.name = "tp";
  g.kind = spec::FigureKind::scaling;
  g.x = "setup";
  g.y = "samples_per_s";
  g.where = {{"model", "b"}, {"parallelism", "pp"}};
  g.baseline = shared_1x1();
  const FigureText f = build_figure(results, g, "par");
  CHECK(f.points == 2);
  CHECK_THAT(f.data, Catch::Contains("1\t0.7\t0.7\t0.7\tNaN\t\"2x2\""));  // S_4 of PP: 280/400
}

TEST_CASE("baseline: the default scaling table shares the 1x1 point when the campaign ran it once") {
  for (const bool repeated : {false, true}) {
    const auto d = parallelism_campaign(repeated);
    const auto results = point_results(d);
    const auto specs = default_tables(results);
    REQUIRE(specs.size() == 1);
    CHECK(specs[0].baseline.ignore == (repeated ? std::vector<std::string>{} : std::vector<std::string>{"parallelism"}));
    const auto tables = build_declared(results, specs[0]);
    // Rows: Setup, Nodes, GPUs per Node, Parallelism, model; TP of model b on 2x2 scales by 0.8 either way.
    const auto* cells = row(tables[0], {"2x2", "2", "2", "tp", "b"});
    REQUIRE(cells);
    REQUIRE(cells->at(1).present);
    CHECK(cells->at(1).stats.summary.mean == Approx(0.8));
  }
}
