// Metrics per message size (report/size_tables.h): which they are, their per-size tables and the
// default figure of a report that declares none.
#include <catch2/catch.hpp>

#include "campaign_fixture.h"
#include "report/markdown.h"
#include "report/presets.h"
#include "report/size_tables.h"

using namespace sweep;
using namespace sweep::report;

namespace {

/// gloo and mpi, two runs each, as collbench reports them: per size (index i, 1 KiB·4^i; mpi also 64
/// KiB at index 3) busbw = f·(i + 1) + rep GB/s with f = 1 for gloo and 2 for mpi, algbw, time_us and
/// size_bytes; per run busbw_avg.
CampaignData sizes_campaign() {
  CampaignData d;
  d.campaign.label = "coll";
  for (const char* backend : {"gloo", "mpi"}) {
    const std::string id = std::string("p-") + backend;
    d.points.push_back({id, static_cast<std::int64_t>(d.points.size()),
                        {{"backend", backend, "string", false}, {"iters", "5", "int", false}}});
    const double f = backend[0] == 'g' ? 1 : 2;
    for (int rep = 0; rep < 2; ++rep) {
      const auto r = fixture::add_run(d, id, rep);
      for (std::int64_t i = 0; i < (backend[0] == 'g' ? 3 : 4); ++i) {
        const double size = 1024.0 * static_cast<double>(1 << (2 * i));
        fixture::add_value(d, r, "size_bytes", size, "B", "", i);
        fixture::add_value(d, r, "busbw", f * static_cast<double>(i + 1) + rep, "GB/s", "higher", i);
        fixture::add_value(d, r, "algbw", f * static_cast<double>(i + 1) + rep, "GB/s", "higher", i);
        fixture::add_value(d, r, "time_us", 10.0 * static_cast<double>(i + 1), "us", "lower", i);
      }
      fixture::add_value(d, r, "busbw_avg", 2 * f + rep, "GB/s", "higher");
    }
  }
  return d;
}

}  // namespace

TEST_CASE("metrics per message size are those at the indices of size_bytes") {
  const auto d = sizes_campaign();
  const auto results = point_results(d);
  CHECK(size_indexed_metrics(results) == std::vector<std::string>{"algbw", "busbw", "size_bytes", "time_us"});
  // One size per run (e16's single all-reduce): every value at index 0, nothing is per size.
  CampaignData one;
  one.points.push_back({"p", 0, {{"backend", "gloo", "string", false}}});
  const auto r = fixture::add_run(one, "p", 0);
  fixture::add_value(one, r, "size_bytes", 1.4e9, "B");
  fixture::add_value(one, r, "busbw", 10, "GB/s");
  CHECK(size_indexed_metrics(point_results(one)).empty());
  CHECK(size_tables(point_results(one)).empty());
}

TEST_CASE("a table per metric per message size: a row per size, a column per point") {
  const auto d = sizes_campaign();
  const auto results = point_results(d);
  const auto tables = size_tables(results);
  REQUIRE(tables.size() == 3);  // algbw, busbw, time_us; not size_bytes itself
  const Table& busbw = tables[1];
  CHECK(busbw.name == "busbw.by-size");
  CHECK(busbw.unit == "GB/s");
  CHECK(busbw.row_names == std::vector<std::string>{"size (B)"});
  CHECK(busbw.columns == std::vector<std::string>{"backend=gloo", "backend=mpi"});
  REQUIRE(busbw.row_values.size() == 4);
  CHECK(busbw.row_values[0] == std::vector<std::string>{"1024"});
  CHECK(busbw.row_values[3] == std::vector<std::string>{"65536"});
  // gloo at 16 KiB (index 2): 3 and 4 over the runs; mpi: 6 and 7. gloo has no 64 KiB row.
  CHECK(busbw.cells[2][0].stats.summary.mean == Approx(3.5));
  CHECK(busbw.cells[2][0].stats.summary.n == 2);
  CHECK(busbw.cells[2][1].stats.summary.mean == Approx(6.5));
  CHECK_FALSE(busbw.cells[3][0].present);
  CHECK(busbw.cells[3][1].stats.summary.mean == Approx(8.5));
  const std::string md = markdown_table(busbw);
  CHECK_THAT(md, Catch::Contains("### busbw by message size (GB/s)") && Catch::Contains("| size (B) | backend=gloo | backend=mpi |") &&
                     Catch::Contains("| 16384 | 4 ± 6 (2) | 6 ± 6 (2) |") && Catch::Contains("| 65536 | – |"));
}

TEST_CASE("default figures of metrics per size: bandwidth against size on a log x, no means over sizes") {
  const auto d = sizes_campaign();
  const auto results = point_results(d);
  const auto figures = default_figures(results);
  REQUIRE_FALSE(figures.empty());
  CHECK(figures[0].name == "default-busbw-by-size");
  CHECK(figures[0].x == "size_bytes");
  CHECK(figures[0].y == "busbw");
  CHECK(figures[0].log_x);
  CHECK(figures[0].series == std::vector<std::string>{"backend"});
  // The per-run metric still gets its figure against the parameter; the per-size ones do not.
  REQUIRE(figures.size() == 2);
  CHECK(figures[1].name == "default-busbw_avg");
  // The transfer preset would average algbw and time_us over sizes: left out.
  CHECK(default_tables(results).empty());
}
