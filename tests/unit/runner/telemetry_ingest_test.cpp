// A run's telemetry files at ingest: metrics with units, the files named in the provenance, and every
// way a file is refused (malformed, a symlink, too odd a name) leaving the verdict as it was.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "runner/telemetry_ingest.h"
#include "temp_dir.h"

using namespace sweep;
using namespace sweep::runner;

namespace {

const std::string kNode1 =
    "sweep-telemetry format=1\nnode n1\ninterval_ms 1000\nepoch_s 1700000000.0\n"
    "source proc ok\nsource rapl unavailable permission denied\nsource nvml unavailable no library\n"
    "proc 0.000 0.10 10.0 1\nproc 1.000 1.10 300.0 3\nproc 2.000 2.10 280.0 3\nend 2.000\n";
const std::string kNode2 =
    "sweep-telemetry format=1\nnode n2\ninterval_ms 1000\nepoch_s 1700000000.0\n"
    "source proc ok\nsource rapl off\nsource nvml off\n"
    "proc 0.000 0.00 5.0 1\nproc 1.000 0.90 100.0 2\nend 1.000\n";

void write(const TempDir& dir, const std::string& name, const std::string& text) { std::ofstream(dir.file(name)) << text; }

std::string provenance(const store::AttemptResult& r, const std::string& key) {
  for (const auto& [k, v] : r.provenance)
    if (k == key) return v;
  return "<none>";
}

std::optional<store::MetricRecord> metric(const store::AttemptResult& r, const std::string& name) {
  for (const auto& m : r.metrics)
    if (m.name == name) return m;
  return std::nullopt;
}

}  // namespace

TEST_CASE("telemetry ingest: two nodes' files give metrics with units and are named in the provenance") {
  TempDir dir;
  write(dir, "telemetry.n1", kNode1);
  write(dir, "telemetry.n2", kNode2);
  write(dir, "telemetry_failed", "stale\n");  // ignored: files are there
  store::AttemptResult r;
  r.state = store::RunState::succeeded;
  std::vector<std::string> warnings;
  add_telemetry(dir.path.string(), r, warnings);
  CHECK(warnings.empty());
  CHECK(r.state == store::RunState::succeeded);
  const auto cpu = metric(r, "cpu_time_s");
  REQUIRE(cpu);
  CHECK(cpu->value == Approx(2.0 + 0.9));  // summed over nodes
  CHECK(cpu->unit == "s");
  const auto rss = metric(r, "peak_rss_mib");
  REQUIRE(rss);
  CHECK(rss->value == Approx(300));
  CHECK(rss->unit == "MiB");
  CHECK_FALSE(metric(r, "gpu_energy_j"));  // nvml unavailable: absent, not zero
  CHECK(provenance(r, "telemetry.files") == "telemetry.n1 telemetry.n2");
  CHECK(provenance(r, "telemetry.error") == "<none>");
}

TEST_CASE("telemetry ingest: a malformed file is a warning naming file:line:column, never the verdict") {
  TempDir dir;
  write(dir, "telemetry.n1", kNode1);
  write(dir, "telemetry.n2", "sweep-telemetry format=1\nnode n2\nproc 0.000 zero 1 1\n");
  store::AttemptResult r;
  r.state = store::RunState::succeeded;
  r.metrics.push_back({"busbw", 0, 12.5, "GB/s", "higher"});
  std::vector<std::string> warnings;
  add_telemetry(dir.path.string(), r, warnings);
  CHECK(r.state == store::RunState::succeeded);
  REQUIRE(r.metrics.size() == 1);  // no telemetry metric from the other node alone
  CHECK_THAT(provenance(r, "telemetry.error"), Catch::Contains(dir.file("telemetry.n2") + ":3:"));
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::Contains("telemetry.n2:3:"));
  CHECK(provenance(r, "telemetry.files") == "<none>");
}

TEST_CASE("telemetry ingest: a symlink planted as telemetry.<node> is refused, not followed") {
  TempDir dir;
  write(dir, "elsewhere", kNode1);
  std::filesystem::create_symlink(dir.file("elsewhere"), dir.file("telemetry.n1"));
  store::AttemptResult r;
  std::vector<std::string> warnings;
  add_telemetry(dir.path.string(), r, warnings);
  CHECK(r.metrics.empty());
  CHECK_THAT(provenance(r, "telemetry.error"), Catch::Contains("telemetry.n1: is a symlink: not followed"));

  TempDir fifo;
  std::filesystem::create_directory(fifo.file("telemetry.n1"));  // a directory of that name
  store::AttemptResult d;
  add_telemetry(fifo.path.string(), d, warnings);
  CHECK(d.metrics.empty());
  CHECK(provenance(d, "telemetry.error") != "<none>");
}

TEST_CASE("telemetry ingest: no file says why, from the job script's telemetry_failed when it left one") {
  TempDir dir;
  write(dir, "telemetry_failed", "the sampler /x/sweep-telemetry is not an executable file\n");
  write(dir, "telemetry.n1 odd", kNode1);  // not a node name: never read
  store::AttemptResult r;
  std::vector<std::string> warnings;
  add_telemetry(dir.path.string(), r, warnings);
  CHECK(r.metrics.empty());
  CHECK(provenance(r, "telemetry.error") == "the sampler did not start: the sampler /x/sweep-telemetry is not an executable file");
  REQUIRE(warnings.size() == 1);

  TempDir empty;
  store::AttemptResult e;
  add_telemetry(empty.path.string(), e, warnings);
  CHECK_THAT(provenance(e, "telemetry.error"), Catch::StartsWith("no telemetry file"));
}

TEST_CASE("telemetry ingest: the workload's own metric of the same name wins, with a warning") {
  TempDir dir;
  write(dir, "telemetry.n1", kNode1);
  store::AttemptResult r;
  r.metrics.push_back({"cpu_time_s", 0, 99, "s", "lower"});
  std::vector<std::string> warnings;
  add_telemetry(dir.path.string(), r, warnings);
  CHECK(metric(r, "cpu_time_s")->value == 99);
  CHECK(std::count_if(r.metrics.begin(), r.metrics.end(), [](const auto& m) { return m.name == "cpu_time_s"; }) == 1);
  REQUIRE_FALSE(warnings.empty());
  CHECK_THAT(warnings[0], Catch::Contains("reported its own cpu_time_s"));
}

TEST_CASE("telemetry ingest: a workload's own telemetry.json is skipped with a note, the sampler's file read") {
  TempDir dir;
  write(dir, "telemetry.n1", kNode1);
  write(dir, "telemetry.json", "{\"gpu\": 1}\n");
  store::AttemptResult r;
  r.state = store::RunState::succeeded;
  std::vector<std::string> warnings;
  add_telemetry(dir.path.string(), r, warnings);
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::Contains("telemetry.json: not a telemetry file of the sampler"));
  REQUIRE(metric(r, "cpu_time_s"));
  CHECK(provenance(r, "telemetry.files") == "telemetry.n1");
  CHECK(provenance(r, "telemetry.error") == "<none>");
}

TEST_CASE("telemetry ingest: a planted telemetry.zzz of a node not of the run is refused, the run has none") {
  TempDir dir;
  write(dir, "telemetry_nodes", "n1\nn2\n");  // as the job script writes it (runner/telemetry_sampling.h)
  write(dir, "telemetry.n1", kNode1);
  write(dir, "telemetry.n2", kNode2);
  write(dir, "telemetry.zzz", "sweep-telemetry format=1\nnode zzz\nsource proc ok\nproc 1 999999 900000 1\nend 1\n");
  write(dir, "telemetry.json", "{\"gpu\": 1}\n");  // not a sampler's file: skipped with a note, as before
  store::AttemptResult r;
  std::vector<std::string> warnings;
  add_telemetry(dir.path.string(), r, warnings);
  CHECK_FALSE(metric(r, "cpu_time_s"));
  CHECK_THAT(provenance(r, "telemetry.error"),
             Catch::Contains("telemetry.zzz: a sampler's file for node zzz, which is not a node of this run"));
  CHECK_THAT(warnings.back(), Catch::Contains("telemetry.zzz"));

  // Without it, the nodes' own files give the run's figures; telemetry.json is still only a note.
  std::filesystem::remove(dir.file("telemetry.zzz"));
  store::AttemptResult ok;
  std::vector<std::string> notes;
  add_telemetry(dir.path.string(), ok, notes);
  REQUIRE(metric(ok, "cpu_time_s"));
  CHECK(metric(ok, "cpu_time_s")->value == Approx(2.9));
  CHECK(provenance(ok, "telemetry.files") == "telemetry.n1 telemetry.n2");
  REQUIRE(notes.size() == 1);
  CHECK_THAT(notes[0], Catch::Contains("telemetry.json: not a node of this run, nor a sampler's file: skipped"));
}

TEST_CASE("telemetry ingest: a second file claiming n1, or a node record unlike its name, is refused") {
  for (const bool listed : {true, false}) {  // with the job script's node list, and without (an older run)
    INFO("listed " << listed);
    TempDir dir;
    if (listed) write(dir, "telemetry_nodes", "n1\nn2\n");
    write(dir, "telemetry.n1", kNode1);
    write(dir, "telemetry.n2", kNode1);  // a copy of n1's file
    store::AttemptResult r;
    std::vector<std::string> warnings;
    add_telemetry(dir.path.string(), r, warnings);
    CHECK(r.metrics.empty());
    CHECK_THAT(provenance(r, "telemetry.error"),
               Catch::Contains("telemetry.n2: claims node n1, as telemetry.n1 does: two files for one node, refused"));
    REQUIRE(warnings.size() == 1);

    TempDir other;
    if (listed) write(other, "telemetry_nodes", "n2\n");
    write(other, "telemetry.n2", kNode1);  // says n1
    store::AttemptResult o;
    add_telemetry(other.path.string(), o, warnings);
    CHECK(o.metrics.empty());
    CHECK_THAT(provenance(o, "telemetry.error"), Catch::Contains("telemetry.n2: its node record says n1, not n2"));
  }
}

TEST_CASE("telemetry ingest: files over the run's budget are refused unread, by bytes and by count") {
  TempDir dir;
  write(dir, "telemetry.n1", kNode1);
  for (const char* name : {"telemetry.n2", "telemetry.n3"}) {  // 200 MiB each, sparse: nothing to read here
    write(dir, name, "sweep-telemetry format=1\n");
    std::filesystem::resize_file(dir.file(name), 200u << 20);
  }
  store::AttemptResult r;
  std::vector<std::string> warnings;
  add_telemetry(dir.path.string(), r, warnings);
  CHECK(r.metrics.empty());
  CHECK_THAT(provenance(r, "telemetry.error"), Catch::Contains("telemetry.n3: 209715200 bytes"));
  CHECK_THAT(provenance(r, "telemetry.error"), Catch::Contains("over the budget of 256 MiB a run: none read"));

  TempDir many;
  for (std::size_t i = 0; i <= kMaxTelemetryFiles; ++i) write(many, "telemetry.n" + std::to_string(i), "");
  store::AttemptResult m;
  add_telemetry(many.path.string(), m, warnings);
  CHECK(m.metrics.empty());
  CHECK_THAT(provenance(m, "telemetry.error"), Catch::Contains("1025 telemetry files, more than the 1024 a run may have"));
}

TEST_CASE("telemetry ingest: a node of the run without its file leaves the run without telemetry, saying why") {
  TempDir dir;
  write(dir, "telemetry_nodes", "n1\nn2\n");
  write(dir, "telemetry.n1", kNode1);  // n2's sampler never started
  write(dir, "telemetry_step_errors", "srun: error: n2: task 1: Exited with exit code 6\nmore\n");
  store::AttemptResult r;
  std::vector<std::string> warnings;
  add_telemetry(dir.path.string(), r, warnings);
  CHECK(r.metrics.empty());  // n1's CPU time alone would pass for the run's
  CHECK_THAT(provenance(r, "telemetry.error"),
             Catch::Contains("no sampler file for node n2 of this run (telemetry_nodes lists n1 n2) "
                             "(telemetry_step_errors: srun: error: n2: task 1: Exited with exit code 6)"));
  CHECK(warnings.size() == 1);
  write(dir, "telemetry.n2", kNode2);  // with both: read as ever
  store::AttemptResult both;
  add_telemetry(dir.path.string(), both, warnings);
  CHECK(metric(both, "cpu_time_s"));
  CHECK(provenance(both, "telemetry.error") == "<none>");
}

TEST_CASE("telemetry ingest: more than 4096 files named telemetry.<name> are refused before any is opened") {
  TempDir dir;
  write(dir, "telemetry_nodes", "n1\n");
  write(dir, "telemetry.n1", kNode1);
  for (int i = 0; i < 4096; ++i) std::ofstream(dir.file("telemetry.x" + std::to_string(i)));  // a workload's
  store::AttemptResult r;
  std::vector<std::string> warnings;
  add_telemetry(dir.path.string(), r, warnings);
  CHECK(r.metrics.empty());
  CHECK_THAT(provenance(r, "telemetry.error"), Catch::Contains("4097 files named telemetry.<name>, more than the 4096 looked at"));
  CHECK(warnings.size() == 1);  // one line, not one per file
}
