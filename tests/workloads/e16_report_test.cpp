// experiments/e16-allreduce-backends.yaml run for real on this machine (mpirun instead of srun, gloo
// and mpi, scale=ci) and reported with its own table: seed 000's "Measured Transfer speed" is 2 x size
// / time of the stored runs, its "Time" is in seconds, and collbench's busbw sits beside them.
#include <catch2/catch.hpp>

#include <map>
#include <sstream>

#include "e2e/harness.h"

namespace {

/// The report CSV's rows, each a map from header to cell (no quoted commas in e16's cells).
std::vector<std::map<std::string, std::string>> read_csv(const std::string& path) {
  std::istringstream in(e2e::read_file(path));
  std::vector<std::vector<std::string>> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.emplace_back();
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) lines.back().push_back(cell);
  }
  std::vector<std::map<std::string, std::string>> rows;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    rows.emplace_back();
    for (std::size_t c = 0; c < lines[0].size() && c < lines[i].size(); ++c) rows.back()[lines[0][c]] = lines[i][c];
  }
  return rows;
}

/// avg over the succeeded runs of the point with these nodes and backend of `expression` over the run's
/// size_bytes `s`, time_us `t` and busbw `b`.
double per_run_mean(e2e::Sandbox& box, const std::string& expression, const std::string& nodes, const std::string& backend) {
  auto db = box.db();
  std::string sql = "SELECT avg(" + expression + ") FROM metrics s JOIN metrics t ON t.run_id = s.run_id AND t.name = 'time_us' "
                    "AND t.idx = s.idx JOIN metrics b ON b.run_id = s.run_id AND b.name = 'busbw' AND b.idx = s.idx JOIN runs r ON r.id = s.run_id WHERE s.name = 'size_bytes' AND r.state = 'succeeded'";
  for (const auto& [name, value] : std::map<std::string, std::string>{{"nodes", nodes}, {"backend", backend}})
    sql += " AND EXISTS (SELECT 1 FROM point_params p WHERE p.point_id = r.point_id AND p.name = '" + name +
           "' AND p.value = '" + value + "')";
  SQLite::Statement q(db, sql);
  REQUIRE(q.executeStep());
  return q.getColumn(0).getDouble();
}

}  // namespace

TEST_CASE("e16's table: the seed's transfer speed is 2 x size / time of the stored runs, its time in seconds") {
  e2e::Sandbox box;
  std::string text = e2e::read_file(e2e::repo_file("experiments/e16-allreduce-backends.yaml"));
  const std::string srun = "  launcher: srun\n  mpi: pmix\n";
  REQUIRE(text.find(srun) != std::string::npos);
  text.replace(text.find(srun), srun.size(), "  launcher: mpirun\n");  // this machine has no Slurm
  box.write("e16.yaml", text);
  const auto run = box.sweep({"run", "e16.yaml", "--label", "e16", "--set", "scale=ci", "--set", "backend=[gloo, mpi]",
                              "--set", "repetitions=2", "-j", "1"});
  INFO("stderr:\n" << run.err << "stdout:\n" << run.out);
  REQUIRE(run.exit_code == 0);
  const auto report = box.sweep({"report", "e16", "--no-figures"});
  INFO(report.err);
  REQUIRE(report.exit_code == 0);
  CHECK_THAT(e2e::read_file(box.path("reports/e16/report.md")),
             Catch::Contains("| Experiment | Nodes | GPUs per Node | Backend | Protocol | Measured Transfer speed (GB/s) | "
                             "Time (s) | busbw (GB/s) |"));
  const auto rows = read_csv(box.path("reports/e16/report.e16.csv"));
  REQUIRE(rows.size() == 4);  // 1x2 and 2x1, gloo and mpi
  for (const auto& row : rows) {
    const std::string nodes = row.at("Nodes"), backend = row.at("Protocol");
    INFO(nodes << " node(s), " << backend);
    CHECK(row.at("Backend") == (backend == "gloo" ? "TCP" : "Open MPI auto"));
    CHECK(row.at("Experiment") == (nodes == "1" ? "e-16-1" : "e-16-2"));
    // GB/s = 1e9 B/s: 2 x size (B) / (time (us) x 1e-6) / 1e9.
    const double speed = per_run_mean(box, "2.0 * s.value / t.value / 1e3", nodes, backend);
    CHECK(std::stod(row.at("Measured Transfer speed (GB/s) mean")) == Approx(speed));
    CHECK(std::stod(row.at("Time (s) mean")) == Approx(per_run_mean(box, "t.value * 1e-6", nodes, backend)));
    // collbench's busbw as stored: size / time x 2(n-1)/n on n ranks, half the seed's number on 2.
    const double busbw = std::stod(row.at("busbw (GB/s) mean"));
    CHECK(busbw == Approx(per_run_mean(box, "b.value", nodes, backend)));
    CHECK(busbw >= speed / 2 * 0.999);
    CHECK(busbw < speed);
    CHECK(row.at("Time (s) n") == "2");
  }
}
