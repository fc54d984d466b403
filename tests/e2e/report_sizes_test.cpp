// `sweep report` through the CLI on campaigns whose runs print real nccl-tests and OSU output (the
// samples of tests/unit/parse/data): tables per message size and the size figure, not means over sizes
// (docs/reports.md, "Metrics per message size").
#include <catch2/catch.hpp>

#include "e2e/harness.h"

using namespace e2e;

namespace {

std::string without_cr(std::string text) {
  std::erase(text, '\r');
  return text;
}

/// A campaign whose runs print a sample of real output, tests/unit/parse/data/<path_template> with the
/// point's `log` in it, read by `parser`.
std::string cat_experiment(const std::string& name, const std::string& parser, const std::string& path_template,
                           const std::string& logs) {
  return "name: " + name + "\nmatrix:\n  log: " + logs + "\nrepetitions: 2\nworkload:\n  command: cat " +
         std::string(SWEEP_SOURCE_DIR) + "/tests/unit/parse/data/" + path_template + "\nmetrics:\n  - parser: " + parser + "\n";
}

}  // namespace

TEST_CASE("nccl-tests output gets a table per metric and size and a busbw-by-size figure, not means over sizes") {
  Sandbox box;
  box.write("nccl.yaml", cat_experiment("nccl", "nccl-tests", "nccl-tests/all_reduce_perf_{{log}}.txt",
                                        "[16gpu_h100, srun_label]"));
  const auto run = box.sweep({"run", "nccl.yaml", "--label", "n"});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const auto r = box.sweep({"report", "n"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string md = read_file(box.path("reports/n/report.md"));
  CHECK_THAT(md, Catch::Contains("### busbw by message size (GB/s)") &&
                     Catch::Contains("| size (B) | log=16gpu_h100 | log=srun_label |") &&
                     Catch::Contains("### time_us by message size (us)"));
  const std::string busbw = without_cr(read_file(box.path("reports/n/report.busbw.by-size.csv")));
  CHECK_THAT(busbw, Catch::StartsWith("size (B),log=16gpu_h100 mean,log=16gpu_h100 sd,log=16gpu_h100 n,") &&
                        Catch::Contains("\n8,") && Catch::Contains("\n8589934592,"));
  // The per-point table keeps the metrics of whole tables only.
  const std::string points = without_cr(read_file(box.path("reports/n/report.csv")));
  CHECK_THAT(points, Catch::Contains("busbw_avg (GB/s) mean"));
  CHECK_THAT(points, !Catch::Contains("busbw (GB/s) mean"));
  const std::string gp = read_file(box.path("reports/n/figures/default-busbw-by-size.gp"));
  CHECK_THAT(gp, Catch::Contains("set logscale x"));
  CHECK(std::filesystem::exists(box.path("reports/n/figures/default-busbw-by-size.svg")));
  CHECK_FALSE(std::filesystem::exists(box.path("reports/n/figures/default-busbw.gp")));
}

TEST_CASE("OSU output gets a latency table per size and a latency-by-size figure") {
  Sandbox box;
  box.write("osu.yaml", cat_experiment("osu", "osu", "osu/{{log}}.txt", "[osu_allreduce]"));
  REQUIRE(box.sweep({"run", "osu.yaml", "--label", "o"}).exit_code == 0);
  const auto r = box.sweep({"report", "o"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string md = read_file(box.path("reports/o/report.md"));
  CHECK_THAT(md, Catch::Contains("### latency_us by message size (us)") && Catch::Contains("| size (B) | latency_us |"));
  CHECK_THAT(md, Catch::Contains("| 4 | ") && Catch::Contains("| 1048576 | "));
  CHECK_THAT(read_file(box.path("reports/o/figures/default-latency_us-by-size.gp")), Catch::Contains("set logscale x"));
}
