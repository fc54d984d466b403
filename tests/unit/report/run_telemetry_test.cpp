// Reading a run's telemetry files named by the (untrusted) database: hostile names, a symlink, a huge
// file, a missing and a malformed file each give a problem line, never an error; good files are read.
#include "report/run_telemetry.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "temp_dir.h"

using namespace sweep::report;

namespace {

const char* kGood = "sweep-telemetry format=1\nnode n1\ninterval_ms 1000\nepoch_s 0\nsource proc ok\nproc 0 0 1 1\nproc 1 1 1 1\nend 1\n";

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace

TEST_CASE("telemetry file names: only telemetry.<safe node>") {
  CHECK(telemetry_name_problem("telemetry.gpu-node-1") == "");
  CHECK(telemetry_name_problem("../../etc/passwd") != "");
  CHECK(telemetry_name_problem("telemetry.../x") != "");
  CHECK(telemetry_name_problem("telemetry.a/b") != "");
  CHECK(telemetry_name_problem("telemetry.") != "");
  CHECK(telemetry_name_problem("telemetry..hidden") != "");
}

TEST_CASE("a run's telemetry: good files read, hostile ones refused with a line each") {
  TempDir dir;
  const std::string run = dir.file("run");
  std::filesystem::create_directories(run);
  write(run + "/telemetry.n1", kGood);
  write(dir.file("secret"), kGood);
  std::filesystem::create_symlink(dir.file("secret"), run + "/telemetry.link");
  write(run + "/telemetry.bad", "sweep-telemetry format=1\nnode bad\nproc 0 zero 1 1\n");
  std::filesystem::create_directory(run + "/telemetry.dir");
  {
    std::ofstream huge(run + "/telemetry.huge");
    huge << kGood;
  }
  std::filesystem::resize_file(run + "/telemetry.huge", kMaxTelemetryBytes + 1);  // sparse: cheap

  TelemetryBudget budget;
  const RunTelemetry t = read_run_telemetry(
      run, "telemetry.n1 ../../etc/passwd telemetry.link telemetry.bad telemetry.dir telemetry.huge telemetry.gone", budget);
  REQUIRE(t.logs.size() == 1);
  CHECK(t.logs[0].node == "n1");
  REQUIRE(t.problems.size() == 6);
  CHECK_THAT(t.problems[0], Catch::StartsWith(run + "/../../etc/passwd: refused as a telemetry file name: not named telemetry.<node>"));
  CHECK(t.problems[1] == run + "/telemetry.link: is a symlink: not followed");
  CHECK_THAT(t.problems[2], Catch::StartsWith(run + "/telemetry.bad:3:"));  // file:line:column of the malformed record
  CHECK(t.problems[3] == run + "/telemetry.dir: not a regular file");
  CHECK_THAT(t.problems[4], Catch::Contains("more than the 67108864 a telemetry file may have: not read"));
  CHECK(t.problems[5] == run + "/telemetry.gone: missing");
}

TEST_CASE("a run's telemetry: a file others may write is not trusted") {
  TempDir dir;
  write(dir.file("telemetry.n1"), kGood);
  std::filesystem::permissions(dir.file("telemetry.n1"), std::filesystem::perms::others_write, std::filesystem::perm_options::add);
  TelemetryBudget budget;
  const RunTelemetry t = read_run_telemetry(dir.path.string(), "telemetry.n1", budget);
  CHECK(t.logs.empty());
  REQUIRE(t.problems.size() == 1);
  CHECK_THAT(t.problems[0], Catch::Contains("telemetry.n1: not trusted: "));
}

TEST_CASE("a run's telemetry: what one report reads is bounded, and a run without a directory reads nothing") {
  TempDir dir;
  write(dir.file("telemetry.a"), kGood);
  write(dir.file("telemetry.b"), kGood);
  const std::uintmax_t size = std::string(kGood).size();
  TelemetryBudget budget{kMaxTelemetryBytes, size + 10};
  const RunTelemetry t = read_run_telemetry(dir.path.string(), "telemetry.a telemetry.b", budget);
  CHECK(t.logs.size() == 1);
  REQUIRE(t.problems.size() == 1);
  CHECK(t.problems[0] == dir.file("telemetry.b") + ": " + std::to_string(size) + " bytes, more than the 10 left of what one report reads: not read");
  CHECK(budget.bytes_left == 10);
  const RunTelemetry none = read_run_telemetry("", "telemetry.a", budget);
  CHECK(none.logs.empty());
  CHECK(none.problems == std::vector<std::string>{"the run has no run directory: its telemetry files are not read"});
}
