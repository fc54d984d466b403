// Telemetry per run on the local executor, with the real sweep-telemetry: a workload of known behaviour
// (a busy loop on one core, a process tree holding a known size) gives cpu_time_s and peak_rss_mib;
// `telemetry: false` gives neither file nor metric; the NVML stand-in (tests/support/nvml_standin.cpp,
// named as such) gives gpu_energy_j and avg_gpu_power_w; a missing sampler leaves the run as it was.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include <SQLiteCpp/Statement.h>

#include "e2e/harness.h"

using namespace e2e;

namespace {

std::optional<double> metric(SQLite::Database& db, const std::string& label, const std::string& name,
                             std::string* unit = nullptr) {
  SQLite::Statement q(db, "SELECT m.value, m.unit FROM metrics m JOIN runs r ON r.id = m.run_id "
                          "JOIN campaigns c ON c.id = r.campaign_id WHERE c.label = ? AND m.name = ?");
  q.bind(1, label);
  q.bind(2, name);
  if (!q.executeStep()) return std::nullopt;
  if (unit) *unit = q.getColumn(1).getString();
  return q.getColumn(0).getDouble();
}

std::string provenance(SQLite::Database& db, const std::string& label, const std::string& key) {
  SQLite::Statement q(db, "SELECT p.value FROM run_provenance p JOIN runs r ON r.id = p.run_id "
                          "JOIN campaigns c ON c.id = r.campaign_id WHERE c.label = ? AND p.key = ?");
  q.bind(1, label);
  q.bind(2, key);
  return q.executeStep() ? q.getColumn(0).getString() : "<none>";
}

std::string run_dir(SQLite::Database& db, const std::string& label) {
  SQLite::Statement q(db, "SELECT r.run_dir FROM runs r JOIN campaigns c ON c.id = r.campaign_id WHERE c.label = ?");
  q.bind(1, label);
  REQUIRE(q.executeStep());
  return q.getColumn(0).getString();
}

/// Runs an experiment of one point whose workload is `command` (a YAML scalar) with `extra` keys.
void run(const Sandbox& box, const std::string& label, const std::string& command, const std::string& extra = "",
         int expected_exit = 0) {
  const std::string spec = "name: " + label + "\nmatrix:\n  n: [1]\nworkload:\n  command: " + command + "\n" + extra;
  const auto r = box.sweep({"run", box.write(label + ".yaml", spec), "--label", label});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == expected_exit);
}

/// The files named telemetry.* in the run directory.
std::vector<std::string> telemetry_files(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().filename().string().rfind("telemetry.", 0) == 0) out.push_back(e.path().filename().string());
  return out;
}

constexpr const char* kFast = "telemetry: {interval_ms: 100}\n";

}  // namespace

TEST_CASE("telemetry: a busy loop's CPU time is the run's cpu_time_s, in the file the database names", "[timing]") {
  Sandbox box;
  // Two seconds of CPU on one core, measured by the loop itself.
  run(box, "busy", "\"python3 -c 'import time\\nt = time.process_time()\\nwhile time.process_time() - t < 2: pass'\"", kFast);
  auto db = box.db();
  std::string unit;
  const auto cpu = metric(db, "busy", "cpu_time_s", &unit);
  REQUIRE(cpu);
  CHECK(unit == "s");
  CHECK(*cpu >= 1.8);  // the last sample is at most one interval (0.1 s) before the loop's end
  CHECK(*cpu <= 2.6);  // python's start-up and the job script's own processes
  const auto cores = metric(db, "busy", "cpu_cores_used_mean", &unit);
  REQUIRE(cores);
  CHECK(unit == "cores");
  CHECK(*cores > 0);     // cpu_time_s over the span, which a loaded machine stretches
  CHECK(*cores <= 1.1);  // one core
  const std::string dir = run_dir(db, "busy");
  const auto files = telemetry_files(dir);
  REQUIRE(files.size() == 1);
  CHECK(provenance(db, "busy", "telemetry.files") == files[0]);
  CHECK(provenance(db, "busy", "telemetry.error") == "<none>");
  CHECK(read_file(dir + "/telemetry_nodes") == files[0].substr(10) + "\n");  // this node, as the job script named its file
  CHECK_THAT(read_file(dir + "/" + files[0]), Catch::StartsWith("sweep-telemetry format=2\n") && Catch::EndsWith("\n") &&
                                                  Catch::Contains("\nend "));
}

TEST_CASE("telemetry: two runs side by side (--jobs 2) each count their own loop's CPU time, not the other's", "[timing]") {
  Sandbox box;
  // Loops of 1 and 2 s of CPU at once, each marked by its own run directory: a run that counted the
  // other's process would have about 3 s.
  const std::string spec = std::string("name: pair\n") + kFast + "matrix:\n  secs: [1, 2]\nworkload:\n  command: " +
                           "\"python3 -c 'import time\\nt = time.process_time()\\nwhile time.process_time() - t < {{secs}}: pass'\"\n";
  const auto r = box.sweep({"run", box.write("pair.yaml", spec), "--label", "pair", "--jobs", "2"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  auto db = box.db();
  SQLite::Statement q(db, "SELECT CAST(p.value AS REAL), m.value, r.started_at, r.ended_at FROM metrics m "
                          "JOIN runs r ON r.id = m.run_id JOIN point_params p ON p.campaign_id = r.campaign_id "
                          "AND p.point_id = r.point_id AND p.name = 'secs' WHERE m.name = 'cpu_time_s' ORDER BY 1");
  int rows = 0;
  while (q.executeStep()) {
    ++rows;
    const double secs = q.getColumn(0).getDouble();
    const double cpu = q.getColumn(1).getDouble();
    INFO("loop of " << secs << " s (" << q.getColumn(2).getString() << " to " << q.getColumn(3).getString()
                    << "): cpu_time_s " << cpu);
    CHECK(cpu >= secs - 0.2);  // the last sample is at most one interval (0.1 s) before the loop's end
    CHECK(cpu <= secs + 0.6);  // python's start-up and the job script's own processes
  }
  CHECK(rows == 2);
}

TEST_CASE("telemetry: a process tree holding 2 x 160 MiB has peak_rss_mib of at least 256", "[timing]") {
  Sandbox box;
  const std::string hold = "python3 -c \"import time; b = bytearray(160 << 20); b[::4096] = b\\\"x\\\" * len(b[::4096]); time.sleep(1.5)\"";
  run(box, "tree", "'" + hold + " & " + hold + "; wait'", kFast);
  auto db = box.db();
  std::string unit;
  const auto rss = metric(db, "tree", "peak_rss_mib", &unit);
  REQUIRE(rss);
  CHECK(unit == "MiB");
  CHECK(*rss >= 256);
  CHECK(*rss < 1024);
}

TEST_CASE("telemetry: off with telemetry: false, no file and no metric, and the exit status kept when on") {
  Sandbox box;
  run(box, "off", "\"sleep 0.3\"", "telemetry: false\n");
  run(box, "failing", "\"exit 3\"", kFast, 1);
  auto db = box.db();
  CHECK(telemetry_files(run_dir(db, "off")).empty());
  CHECK_FALSE(metric(db, "off", "cpu_time_s"));
  CHECK_FALSE(metric(db, "off", "telemetry_span_s"));
  CHECK(provenance(db, "off", "telemetry.files") == "<none>");
  CHECK(provenance(db, "off", "telemetry.error") == "<none>");
  CHECK(scalar(db, "SELECT count(*) FROM runs r JOIN campaigns c ON c.id = r.campaign_id WHERE c.label = 'failing' "
                   "AND r.state = 'failed' AND r.failure_class = 'exit_code' AND r.exit_code = 3") == 1);
  CHECK(metric(db, "failing", "telemetry_span_s"));
  CHECK(read_file(run_dir(db, "failing") + "/exit_code") == "3\n");
}

TEST_CASE("telemetry: the NVML stand-in's GPU gives gpu_energy_j and avg_gpu_power_w with units") {
  Sandbox box;
  const std::string script = box.write("nvml-script", "gpu GPU-standin-0 200 50 20 1000 1400 45 0x0 Stand-in GPU\n");
  run(box, "gpu", "\"sleep 1\"",
      // In setup, not env: env refuses names starting with SWEEP_ (sweep's own).
      std::string(kFast) + "setup:\n  - export SWEEP_NVML_LIBRARY=" + NVML_STANDIN_LIB + " SWEEP_NVML_STANDIN=" + script + "\n");
  auto db = box.db();
  std::string unit;
  const auto energy = metric(db, "gpu", "gpu_energy_j", &unit);
  REQUIRE(energy);
  CHECK(unit == "J");
  const auto power = metric(db, "gpu", "avg_gpu_power_w", &unit);
  REQUIRE(power);
  CHECK(unit == "W");
  // The stand-in's counter integrates its scripted 200 W; the power is over the time between the GPU's
  // first and last reading, so a first reading late on a busy machine does not lower it.
  CHECK(*power == Approx(200).epsilon(0.1));
  const auto span = metric(db, "gpu", "telemetry_span_s");
  REQUIRE(span);
  CHECK(*energy >= 100);  // at least half of the 1 s sleep read, at 200 W
  CHECK(*energy <= 200 * *span * 1.1);
  const auto util = metric(db, "gpu", "gpu_util_mean", &unit);
  REQUIRE(util);
  CHECK(unit == "%");
  CHECK(*util == Approx(50));
  CHECK_THAT(provenance(db, "gpu", "telemetry.gpu_energy_from"), Catch::Contains("counter"));
}

TEST_CASE("telemetry: a user's own python3 program is sampled too", "[timing]") {
  Sandbox box;
  box.write("prog.py", "import time\nt = time.process_time()\nwhile time.process_time() - t < 1: pass\nprint('done')\n");
  run(box, "own", "\"python3 prog.py\"", std::string(kFast) + "workdir: experiment\n");
  auto db = box.db();
  const auto cpu = metric(db, "own", "cpu_time_s");
  REQUIRE(cpu);
  const std::string dir = run_dir(db, "own");
  std::string texts;
  for (const std::string& f : telemetry_files(dir)) texts += f + ":\n" + read_file(dir + "/" + f);
  INFO(texts);
  INFO("stdout: " << read_file(dir + "/stdout") << "stderr: " << read_file(dir + "/stderr"));
  CHECK(*cpu >= 0.8);
  CHECK(*cpu <= 1.6);
}

TEST_CASE("telemetry: a missing sampler leaves the run succeeded, without telemetry, and says why") {
  Sandbox box;
  std::filesystem::create_directories(box.path("empty-bundled"));
  ::setenv("SWEEP_BUNDLED_DIR", box.path("empty-bundled").c_str(), 1);
  const auto r = box.sweep({"run", box.write("missing.yaml", "name: missing\nmatrix:\n  n: [1]\nworkload:\n  command: \"true\"\n"),
                            "--label", "missing"});
  ::unsetenv("SWEEP_BUNDLED_DIR");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == 1);
  CHECK_FALSE(metric(db, "missing", "telemetry_span_s"));
  CHECK(provenance(db, "missing", "telemetry.error") ==
        "the sampler did not start: the sampler " + box.path("empty-bundled") + "/sweep-telemetry is not an executable file");
  CHECK_THAT(read_file(run_dir(db, "missing") + "/ingest_warnings"), Catch::Contains("telemetry: the sampler did not start"));
}

TEST_CASE("telemetry: a run killed at its time limit stops its sampler, whose file ends with end") {
  Sandbox box;
  run(box, "slow", "\"sleep 30\"", std::string("telemetry: {interval_ms: 200}\nresources: {time: \"0:02\"}\n"), 1);
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE failure_class = 'timeout'") == 1);
  const std::string dir = run_dir(db, "slow");
  const auto files = telemetry_files(dir);
  REQUIRE(files.size() == 1);
  CHECK_THAT(read_file(dir + "/" + files[0]), Catch::Contains("\nend "));  // stopped by the script's EXIT trap
  // No sampler outlives the run (the EXIT trap stops it; the sampler also ends when its root is gone).
  for (const auto& p : std::filesystem::directory_iterator("/proc")) {
    const std::string cmdline = read_file(p.path().string() + "/cmdline");
    if (cmdline.find("sweep-telemetry") != std::string::npos) CHECK(cmdline.find(dir) == std::string::npos);
  }
}

TEST_CASE("telemetry: the default sets leave the run measurements out but named ones are compared", "[timing]") {
  Sandbox box;
  // The same `speed` in both campaigns; the candidate's runs also burn about half a second of CPU. Five
  // repetitions: on a loaded machine the burn's CPU time varied by 25%, and with three the four
  // comparisons' Holm correction left cpu_time_s inconclusive (p = 0.02 each, 0.08 corrected).
  const auto experiment = [&](const std::string& name, const std::string& burn) {
    return "name: " + name + "\ntelemetry: {interval_ms: 100}\nmatrix:\n  n: [1, 2]\nrepetitions: 5\nworkload:\n"
           "  command: >-\n    " + burn + " echo \"{\\\"v\\\": 1, \\\"metric\\\": \\\"speed\\\", \\\"value\\\": "
           "$(( {{n}} * 1000 + {{repetition}} * 10 )), \\\"better\\\": \\\"higher\\\"}\"\n";
  };
  box.write("light.yaml", experiment("cpu", ""));
  box.write("heavy.yaml", experiment("cpu", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done;"));
  REQUIRE(box.sweep({"run", "light.yaml", "--label", "light"}).exit_code == 0);
  REQUIRE(box.sweep({"run", "heavy.yaml", "--label", "heavy"}).exit_code == 0);

  const auto gate = box.sweep({"compare", "light", "heavy", "--fail-on", "regressed"});
  INFO(gate.out << gate.err);
  CHECK(gate.exit_code == 0);  // speed is unchanged; cpu_time_s is not in the default set
  CHECK_THAT(gate.out, Catch::Contains("speed"));
  CHECK_THAT(gate.out, !Catch::Contains("cpu_time_s") && !Catch::Contains("peak_rss_mib"));

  const auto named = box.sweep({"compare", "light", "heavy", "--metrics", "speed,cpu_time_s", "--fail-on", "regressed"});
  INFO(named.out << named.err);
  CHECK(named.exit_code == 1);  // named, it is an ordinary lower-is-better metric: the burn regressed it
  CHECK_THAT(named.out, Catch::Contains("cpu_time_s"));

  // The default report's figures are the workload's metrics; the run's measurements are in their sections.
  REQUIRE(box.sweep({"report", "heavy"}).exit_code == 0);
  CHECK(std::filesystem::exists(box.path("reports/heavy/figures/default-speed.gp")));
  CHECK_FALSE(std::filesystem::exists(box.path("reports/heavy/figures/default-cpu_time_s.gp")));
  CHECK_THAT(read_file(box.path("reports/heavy/report.csv")), Catch::StartsWith("n,speed mean,"));
  // A workload that reports no metric of its own: its table shows the measurements, all there is.
  run(box, "bare", "'sleep 0.2'", kFast);
  REQUIRE(box.sweep({"report", "bare"}).exit_code == 0);
  CHECK_THAT(read_file(box.path("reports/bare/report.csv")), Catch::Contains("cpu_time_s (s) mean"));
}

TEST_CASE("telemetry: sweep reparse reads the telemetry files again and replaces their provenance whole") {
  Sandbox box;
  run(box, "again", "'sleep 0.3'", kFast);
  const std::string dir = [&] {
    auto db = box.db();
    REQUIRE(metric(db, "again", "cpu_time_s"));
    return run_dir(db, "again");
  }();
  const auto files = telemetry_files(dir);
  REQUIRE(files.size() == 1);
  std::filesystem::remove(dir + "/" + files[0]);
  std::ofstream(dir + "/" + files[0]) << "sweep-telemetry format=1\nproc 0 x 1 1\n";  // now malformed
  const auto r = box.sweep({"reparse", "again"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  auto db = box.db();
  CHECK_FALSE(metric(db, "again", "cpu_time_s"));
  CHECK(provenance(db, "again", "telemetry.files") == "<none>");   // not the stale name of the first ingest
  CHECK(provenance(db, "again", "telemetry.sources") == "<none>");
  CHECK_THAT(provenance(db, "again", "telemetry.error"), Catch::Contains(files[0] + ":2:8"));
}
