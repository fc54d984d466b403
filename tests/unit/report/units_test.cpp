// Units and their conversions (report/units.h), and declared columns that convert and scale their
// metric (docs/reports.md, "Units and scale") in every format.
#include <catch2/catch.hpp>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <cmath>

#include "campaign_fixture.h"
#include "report/csv.h"
#include "report/declared_tables.h"
#include "report/json_report.h"
#include "report/latex.h"
#include "report/markdown.h"
#include "report/units.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::report;

namespace {

/// Two points (nodes 1 and 2), three runs each: time_us = 1000·nodes + 100·rep (us), busbw = 10·nodes
/// + rep (GB/s), steps without a unit.
CampaignData timed_campaign() {
  CampaignData d;
  d.campaign.label = "units";
  for (int nodes = 1; nodes <= 2; ++nodes) {
    const std::string id = fmt::format("p{}", nodes);
    d.points.push_back({id, nodes - 1, {{"nodes", std::to_string(nodes), "int", false}}});
    for (int rep = 0; rep < 3; ++rep) {
      const auto r = fixture::add_run(d, id, rep);
      fixture::add_value(d, r, "time_us", 1000.0 * nodes + 100.0 * rep, "us", "lower");
      fixture::add_value(d, r, "busbw", 10.0 * nodes + rep, "GB/s", "higher");
      fixture::add_value(d, r, "steps", 50, "", "");
    }
  }
  return d;
}

spec::ReportColumn metric_column(const std::string& metric, const std::string& unit, double scale, int line) {
  spec::ReportColumn c;
  c.metric = metric;
  c.unit = unit;
  c.scale = scale;
  c.at = {"r.yaml", line, 11};
  c.unit_at = {"r.yaml", line, 30};
  return c;
}

spec::ReportTable units_table() {
  spec::ReportTable t;
  t.name = "units";
  t.spread = spec::Spread::sd;
  spec::ReportColumn nodes;
  nodes.param = "nodes";
  t.columns = {nodes, metric_column("time_us", "ms", 1, 4), metric_column("busbw", "Gb/s", 1, 5),
               metric_column("busbw", "", 2, 6)};
  return t;
}

}  // namespace

TEST_CASE("conversion factors come from one table of unit families") {
  CHECK(conversion_factor("GB/s", "GB/s") == 1);
  CHECK(conversion_factor("GB/s", "Gb/s") == Approx(8));
  CHECK(conversion_factor("us", "s") == Approx(1e-6));
  CHECK(conversion_factor("µs", "ms") == Approx(1e-3));
  CHECK(conversion_factor("min", "s") == Approx(60));
  CHECK(conversion_factor("J", "kWh") == Approx(1 / 3.6e6));
  CHECK(conversion_factor("Wh", "kJ") == Approx(3.6));
  CHECK(conversion_factor("W", "kW") == Approx(1e-3));
  CHECK_THROWS_AS(conversion_factor("J", "W"), sweep::Error);
  CHECK(conversion_factor("MiB", "MB") == Approx(1.048576));
  CHECK(conversion_factor("GB", "GiB") == Approx(1e9 / 1073741824.0));
  CHECK(conversion_factor("B", "kb") == Approx(8e-3));
  CHECK(conversion_factor("tokens/s", "ktokens/s") == Approx(1e-3));
  CHECK(conversion_factor("samples/s", "Msamples/min") == Approx(60e-6));
  CHECK(conversion_factor("B/s", "MB/ms") == Approx(1e-9));
  CHECK(conversion_factor("MB/s", "GiB/s") == Approx(1e6 / 1073741824.0));
}

TEST_CASE("incompatible and unknown units are errors that list the valid units") {
  CHECK_THROWS_WITH(conversion_factor("s", "GB"),
                    "cannot convert s (time) to GB (bytes); s converts to ns, us, µs, ms, s, min, h");
  CHECK_THROWS_WITH(conversion_factor("GB/s", "GB"),
                    Catch::StartsWith("cannot convert GB/s (bytes/time) to GB (bytes); GB/s converts to B/s, kB/s, MB/s, "
                                      "GB/s, TB/s, KiB/s") &&
                        Catch::EndsWith("(or over ns, us, µs, ms, s, min, h)"));
  CHECK_THROWS_WITH(conversion_factor("tokens/s", "samples/s"), Catch::StartsWith("cannot convert tokens/s (tokens/time)"));
  CHECK_THROWS_WITH(conversion_factor("s", "sec"),
                    Catch::StartsWith("unknown unit \"sec\"") && Catch::Contains("valid units: bytes: B, kB, MB,") &&
                        Catch::Contains("time: ns, us, µs, ms, s, min, h; tokens: tokens, ktokens") &&
                        Catch::Contains("rates: any of these but a time over a time, e.g. GB/s"));
  CHECK_THROWS_WITH(conversion_factor("s/GB", "s"), Catch::StartsWith("unknown unit \"s/GB\""));
  CHECK_THROWS_AS(conversion_factor("GB", "s/s"), Error);
}

TEST_CASE("scaling a metric's statistics scales every figure that is linear in the values") {
  MetricStats m;
  m.unit = "us";
  m.better = "lower";
  m.values = {1, 2, 3, 10};
  m.summary = stats::summarize(m.values);
  m.by_index = {{0, stats::summarize(m.values)}};
  const MetricStats s = scaled_stats(m, 1e-3, "ms");
  const stats::Summary expected = stats::summarize(std::vector<double>{1e-3, 2e-3, 3e-3, 1e-2});
  CHECK(s.unit == "ms");
  CHECK(s.better == "lower");
  CHECK(s.values[3] == Approx(1e-2));
  CHECK(s.summary.n == 4);
  CHECK(s.summary.mean == Approx(expected.mean));
  CHECK(s.summary.sd == Approx(expected.sd));
  CHECK(s.summary.ci_low == Approx(expected.ci_low));
  CHECK(s.summary.ci_high == Approx(expected.ci_high));
  CHECK(s.summary.q3 == Approx(expected.q3));
  CHECK(s.summary.cv == Approx(expected.cv));
  CHECK(s.by_index[0].second.max == Approx(1e-2));
}

TEST_CASE("a declared column converts its metric's unit and scales it, in every format") {
  const auto d = timed_campaign();
  const auto results = point_results(d);
  const auto tables = build_declared(results, units_table());
  REQUIRE(tables.size() == 1);
  const Table& t = tables[0];
  CHECK(t.columns == std::vector<std::string>{"time_us (ms)", "busbw (Gb/s)", "busbw (GB/s)"});
  CHECK(t.column_units == std::vector<std::string>{"ms", "Gb/s", "GB/s"});
  // nodes 2: time 2000, 2100, 2200 us -> 2.1 ± 0.1 ms; busbw 20, 21, 22 GB/s -> 168 ± 8 Gb/s; x2: 42 ± 2.
  // Shown by the rule: sd 0.1 (leading 100: two digits) 2.10 ± 0.10; 8 (800: one) 168 ± 8; 2 (200: two) 42.0 ± 2.0.
  CHECK(t.cells[1][0].stats.summary.mean == Approx(2.1));
  CHECK(t.cells[1][0].stats.summary.sd == Approx(0.1));
  CHECK(t.cells[1][1].stats.summary.mean == Approx(168));
  CHECK(t.cells[1][2].stats.summary.mean == Approx(42));
  CHECK(t.cells[1][2].stats.summary.sd == Approx(2));
  CHECK_THAT(markdown_table(t), Catch::Contains("| time_us (ms) | busbw (Gb/s) | busbw (GB/s) |") &&
                                    Catch::Contains("| 2 | 2.10 ± 0.10 (3) | 168 ± 8 (3) | 42.0 ± 2.0 (3) |"));
  std::string csv = csv_table(t);
  std::erase(csv, '\r');
  CHECK_THAT(csv, Catch::StartsWith("nodes,time_us (ms) mean,time_us (ms) sd,time_us (ms) n,busbw (Gb/s) mean,") &&
                      Catch::Contains("\n2,2.1") && Catch::Contains(",168,8,3,42,2,3,2.10,0.10,168,8,42.0,2.0\n"));
  CHECK_THAT(latex_table(t, "units"), Catch::Contains("\\multicolumn{4}{c}{time\\_us (ms)} & \\multicolumn{4}{c}{busbw (Gb/s)}") &&
                                          Catch::Contains("2 & $2$ & $.10$ & ${\\pm}\\,0$ & $.10$ & $168$ &  & ${\\pm}\\,8$ &  & $42$ & $.0$ & ${\\pm}\\,2$ & $.0$ \\\\"));
  const auto j = nlohmann::json::parse(json_report(d, results, {}, tables));
  const auto& jt = j["tables"][0];
  CHECK(jt["name"] == "units");
  CHECK(jt["columns"][0]["header"] == "time_us (ms)");
  CHECK(jt["columns"][0]["unit"] == "ms");
  CHECK(jt["rows"][1]["values"][0] == "2");
  CHECK(jt["rows"][1]["cells"][0]["mean"].get<double>() == Approx(2.1));
  CHECK(jt["rows"][1]["cells"][0]["sd"].get<double>() == Approx(0.1));
  CHECK(jt["rows"][1]["cells"][1]["ci95"][1].get<double>() > 168);
  CHECK(jt["rows"][1]["cells"][1]["n"] == 3);
  // The points keep the stored values, in the metric's own unit.
  CHECK(j["points"][1]["metrics"]["time_us"]["unit"] == "us");
  CHECK(j["points"][1]["metrics"]["time_us"]["mean"].get<double>() == Approx(2100));
}

TEST_CASE("a column's unit that its metric's does not convert to is an error at the column") {
  const auto d = timed_campaign();
  const auto results = point_results(d);
  auto t = units_table();
  t.columns[1] = metric_column("time_us", "GB", 1, 4);
  CHECK_THROWS_WITH(build_declared(results, t),
                    "r.yaml:4:30: cannot convert us (time) to GB (bytes); us converts to ns, us, µs, ms, s, min, h");
  t.columns[1] = metric_column("time_us", "secs", 1, 4);
  CHECK_THROWS_WITH(build_declared(results, t), Catch::StartsWith("r.yaml:4:30: unknown unit \"secs\"") &&
                                                    Catch::Contains("valid units: bytes: B,"));
  t.columns[1] = metric_column("steps", "ksamples", 1, 7);
  CHECK_THROWS_WITH(build_declared(results, t),
                    "r.yaml:7:30: metric \"steps\" has no unit to convert to ksamples; give \"scale\" and a \"label\" instead");
  t.columns[1] = metric_column("steps", "", 0.5, 7);
  t.columns[1].label = "Half steps";
  CHECK(build_declared(results, t)[0].cells[0][0].stats.summary.mean == Approx(25));
}
