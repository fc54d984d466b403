#include <catch2/catch.hpp>

#include "report/csv.h"
#include "report/html.h"
#include "report/markdown.h"
#include "report/table.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::report;
using store::RunState;

namespace {

/// Two parameters (nodes x batch), two repetitions each; point (2, 64) failed once.
CampaignData sample() {
  CampaignData d;
  d.campaign.label = "c";
  d.campaign.experiment = "e";
  int ordinal = 0;
  for (const char* nodes : {"1", "2"})
    for (const char* batch : {"32", "64"}) {
      const std::string id = std::string("p") + nodes + batch;
      d.points.push_back({id, ordinal++, {{"nodes", nodes, "int", false}, {"batch", batch, "int", false},
                                          {"model", "gpt2", "string", false}}});
    }
  std::int64_t run_id = 0;
  for (const auto& p : d.points)
    for (int rep = 0; rep < 2; ++rep) {
      store::RunRecord r;
      r.id = ++run_id;
      r.point_id = p.point_id;
      r.repetition = rep;
      r.attempt = 1;
      r.state = p.point_id == "p264" && rep == 1 ? RunState::failed : RunState::succeeded;
      r.failure_class = r.state == RunState::failed ? "exit_code" : "";
      r.failure_reason = r.state == RunState::failed ? "exited with code 3 (expected 0)" : "";
      d.runs.push_back(r);
      // throughput = nodes * batch + rep; two matches in the run (averaged within the run).
      const double v = std::stod(p.params[0].value) * std::stod(p.params[1].value) + rep;
      for (int idx = 0; idx < 2; ++idx)
        d.metrics.push_back({r.id, p.point_id, rep, r.state, {"throughput", idx, v + (idx ? 1 : -1), "samples/s", "higher"}});
    }
  return d;
}

}  // namespace

TEST_CASE("per-point tables average within runs, then summarise succeeded runs") {
  const auto d = sample();
  const auto results = point_results(d);
  REQUIRE(results.size() == 4);
  const auto& s = results[0].metrics.at("throughput").summary;  // nodes 1, batch 32: runs give 32 and 33
  CHECK(s.n == 2);
  CHECK(s.mean == Approx(32.5));
  CHECK(s.sd == Approx(0.7071067811865476));
  CHECK(results[3].succeeded == 1);
  CHECK(results[3].failed == 1);
  CHECK(results[3].metrics.at("throughput").summary.n == 1);

  const auto tables = build_tables(results, {});
  REQUIRE(tables.size() == 1);
  CHECK(tables[0].row_names == std::vector<std::string>{"nodes", "batch"});  // constant model is left out
  const auto md = markdown_table(tables[0]);
  CHECK_THAT(md, Catch::StartsWith("| nodes | batch | throughput (samples/s) |\n| --- | --- | ---: |\n"));
  // 95% CI half-width 12.706 · 0.7071 / sqrt(2) = 6.353: leading digits 635 keep one digit, so the mean
  // to units; 32.5 is an exact tie and rounds to the even 32 (report/rounding.h).
  CHECK_THAT(md, Catch::Contains("| 1 | 32 | 32 ± 6 (2) |"));
  // One run: no spread, the mean alone, and the table says so once, after a blank line.
  CHECK_THAT(md, Catch::Contains("| 2 | 64 | 128 (1) |"));
  CHECK_THAT(md, Catch::EndsWith(std::string("|\n\n") + kZeroSpreadNote + "\n"));
  CHECK(has_zero_spread(tables[0], Spread::ci95));
  CHECK_FALSE(has_zero_spread(tables[0], Spread::none));
}

TEST_CASE("pivot tables put the chosen parameters in columns, one table per metric") {
  const auto d = sample();
  const auto tables = build_tables(point_results(d), {{"batch"}, {"nodes"}, {}});
  REQUIRE(tables.size() == 1);
  CHECK(tables[0].title == "throughput");
  CHECK(tables[0].columns == std::vector<std::string>{"nodes=1", "nodes=2"});
  const auto md = markdown_table(tables[0]);
  CHECK_THAT(md, Catch::StartsWith("### throughput (samples/s)\n\n| batch | nodes=1 | nodes=2 |"));
  CHECK_THAT(md, Catch::Contains("| 64 | 64 ± 6 (2) | 128 (1) |"));  // 64.5 ± 6.353: a tie, to the even 64
  const auto csv = csv_table(tables[0]);
  // Full precision first (format 1's columns), then the shown texts of each column (format 2).
  CHECK_THAT(csv, Catch::StartsWith("batch,nodes=1 mean,nodes=1 sd,nodes=1 n,nodes=2 mean,nodes=2 sd,nodes=2 n,"
                                    "nodes=1 mean shown,nodes=1 uncertainty shown,nodes=2 mean shown,nodes=2 uncertainty shown\r\n"));
  CHECK_THAT(csv, Catch::Contains("\r\n32,32.5,0.7071067811865476,2,64.5,0.7071067811865476,2,32,6,64,6\r\n"));
  CHECK_THAT(csv, Catch::Contains("\r\n64,64.5,0.7071067811865476,2,128,0,1,64,6,128,\r\n"));  // one run: no uncertainty text
}

TEST_CASE("unknown table parameters and metrics are usage errors with suggestions") {
  const auto d = sample();
  CHECK_THROWS_WITH(build_tables(point_results(d), {{"nodse"}, {}, {}}), Catch::Contains("did you mean \"nodes\""));
  CHECK_THROWS_AS(build_tables(point_results(d), {{}, {}, {"latency"}}), Error);
}

TEST_CASE("the Markdown report lists failed runs and escapes pipes") {
  auto d = sample();
  d.runs[7].failure_reason = "bad | value";
  const auto md = markdown_report(d, build_tables(point_results(d), {}));
  CHECK_THAT(md, Catch::StartsWith("# Campaign c\n"));
  CHECK_THAT(md, Catch::Contains("Runs: 8 planned, 7 succeeded, 1 failed."));
  CHECK_THAT(md, Catch::Contains("## Failed runs") && Catch::Contains("bad \\| value"));
}

TEST_CASE("every cell shows how many runs it is over, in Markdown and HTML, declared tables too") {
  const auto d = sample();
  auto tables = build_tables(point_results(d), {});
  REQUIRE(tables.size() == 1);
  CHECK(cell_n(tables[0].cells[0][0]) == "2");
  CHECK(cell_n(Cell{}) == "");
  // HTML: the value, then n muted; a single run's cell has no spread.
  const std::string html = html_report(d, tables, {});
  CHECK_THAT(html, Catch::Contains("<td class=\"num\">32 ± 6 <span class=\"n\">n=2</span></td>"));
  CHECK_THAT(html, Catch::Contains("<td class=\"num\">128 <span class=\"n\">n=1</span></td>"));
  // A declared table (it states its spread): Markdown says n is in the cells, and shows it.
  tables[0].spread = Spread::sd;
  const std::string md = markdown_table(tables[0]);
  CHECK_THAT(md, Catch::Contains("Cells: mean ± standard deviation (n).") && Catch::Contains("| 1 | 32 | 32.5 ± 0.7 (2) |") &&
                     Catch::Contains("| 2 | 64 | 128 (1) |"));
  CHECK_THAT(html_report(d, tables, {}), Catch::Contains("<td class=\"num\">32.5 ± 0.7 <span class=\"n\">n=2</span></td>"));
  tables[0].cells[0][0] = Cell{};
  CHECK_THAT(markdown_table(tables[0]), Catch::Contains("| 1 | 32 | – |"));
}
