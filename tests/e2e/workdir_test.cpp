// Where a run runs (docs/experiment-format.md, "Where a run runs"): a user's own Python script beside
// its experiment, with relative paths, started by sweep from another directory; the other `workdir`s;
// a setup line that changes directory; a workdir that cannot be entered; a resume from a third directory.
#include <catch2/catch.hpp>

#include <filesystem>

#include "e2e/harness.h"

using namespace e2e;

namespace {

// Reads its data by a relative path, prints where it ran, writes its own output into the run directory.
const char* kTrain = R"(import argparse, json, os
p = argparse.ArgumentParser()
p.add_argument("--batch", type=int, required=True)
a = p.parse_args()
with open("data/scale.txt") as f:
    scale = float(f.read())
print("cwd:", os.getcwd())
print("throughput:", scale * a.batch)
with open(os.path.join(os.environ["SWEEP_RUN_DIR"], "out.json"), "w") as f:
    json.dump({"batch": a.batch}, f)
)";

const char* kExperiment = R"(name: own
matrix:
  batch: [1, 2]
workload:
  command: python3 train.py --batch {{batch}}
metrics:
  - {name: throughput, better: higher, regex: 'throughput: (?<value>[0-9.]+)'}
)";

struct Project {
  Sandbox box;
  std::string project = box.path("project");
  std::string elsewhere = box.path("elsewhere");
  Project() {
    box.write("project/train.py", kTrain);
    box.write("project/data/scale.txt", "100\n");
    box.write("project/exp.yaml", kExperiment);
    std::filesystem::create_directories(elsewhere);
  }
  /// `sweep <args>` started in `dir`, results in the sandbox.
  Result sweep_in(const std::string& dir, const std::string& args) const {
    return shell("cd '" + dir + "' && " + SWEEP_BIN + " " + args + " --results '" + box.path("results") + "'");
  }
  std::vector<std::string> printed(const std::string& prefix) const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(box.path("results")))
      if (e.path().filename() == "stdout") {
        const std::string text = read_file(e.path().string());
        const auto at = text.find(prefix);
        if (at != std::string::npos) out.push_back(text.substr(at + prefix.size(), text.find('\n', at) - at - prefix.size()));
      }
    return out;
  }
};

}  // namespace

TEST_CASE("a user's python3 train.py with relative paths runs in its experiment's directory, started from elsewhere") {
  Project p;
  const auto r = p.sweep_in(p.elsewhere, "run ../project/exp.yaml --label own");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  auto db = p.box.db();
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == 2);
  CHECK(scalar(db, "SELECT sum(value) FROM metrics WHERE name = 'throughput'") == 300);
  SQLite::Statement dirs(db, "SELECT experiment_dir, launch_dir FROM campaigns WHERE label = 'own'");
  REQUIRE(dirs.executeStep());
  CHECK(dirs.getColumn(0).getString() == p.project);
  CHECK(dirs.getColumn(1).getString() == p.elsewhere);
  for (const auto& cwd : p.printed("cwd: ")) CHECK(cwd == p.project);
  // The job script's files and the script's own output are in each run directory, none in the project.
  SQLite::Statement runs(db, "SELECT run_dir FROM runs");
  while (runs.executeStep()) {
    const std::string dir = runs.getColumn(0).getString();
    CHECK(read_file(dir + "/exit_code") == "0\n");
    CHECK(std::filesystem::exists(dir + "/out.json"));
  }
  for (const char* stray : {"exit_code", "stdout", "out.json", "provenance", "setup.log"})
    CHECK_FALSE(std::filesystem::exists(p.project + "/" + stray));
}

TEST_CASE("workdir launch and run and a templated path: each run's working directory") {
  Project p;
  p.box.write("project/exp.yaml", std::string(kExperiment) + "workdir: sub/{{batch}}\n");
  for (const char* b : {"1", "2"}) p.box.write(std::string("project/sub/") + b + "/data/scale.txt", "1\n");
  p.box.write("project/sub/1/train.py", kTrain);
  p.box.write("project/sub/2/train.py", kTrain);
  auto r = p.sweep_in(p.elsewhere, "run ../project/exp.yaml --label sub");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  auto cwds = p.printed("cwd: ");
  std::sort(cwds.begin(), cwds.end());
  CHECK(cwds == std::vector<std::string>{p.project + "/sub/1", p.project + "/sub/2"});

  // launch: the directory sweep was started in (here with the script and its data copied there)
  Project q;
  q.box.write("elsewhere/train.py", kTrain);
  q.box.write("elsewhere/data/scale.txt", "1\n");
  r = q.sweep_in(q.elsewhere, "run ../project/exp.yaml --label launch --set workdir=launch");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  for (const auto& cwd : q.printed("cwd: ")) CHECK(cwd == q.elsewhere);

  // run: each run in its own directory, where a relative train.py is not
  r = q.sweep_in(q.elsewhere, "run ../project/exp.yaml --label inrun --set workdir=run");
  CHECK(r.exit_code != 0);
  auto db = q.box.db();
  SQLite::Statement runs(db, "SELECT r.run_dir FROM runs r JOIN campaigns c ON c.id = r.campaign_id WHERE c.label = 'inrun'");
  int n = 0;
  while (runs.executeStep()) {
    const std::string dir = runs.getColumn(0).getString();
    CHECK_THAT(read_file(dir + "/stderr"), Catch::Contains("can't open file") && Catch::Contains(dir + "/train.py"));
    ++n;
  }
  CHECK(n == 2);
}

TEST_CASE("a setup line that changes directory moves the workload but not the job script's files") {
  Project p;
  p.box.write("project/exp.yaml", "name: cd\nmatrix:\n  x: [1]\nsetup: [\"cd /tmp\"]\n"
                                  "workload:\n  command: 'pwd; echo value=1'\n"
                                  "metrics: [{name: value, better: higher, regex: 'value=(?<value>\\d+)'}]\n");
  const auto r = p.sweep_in(p.project, "run exp.yaml --label cd");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  auto db = p.box.db();
  SQLite::Statement q(db, "SELECT run_dir FROM runs");
  REQUIRE(q.executeStep());
  const std::string dir = q.getColumn(0).getString();
  CHECK(read_file(dir + "/stdout") == "/tmp\nvalue=1\n");
  CHECK(read_file(dir + "/exit_code") == "0\n");
  CHECK(read_file(dir + "/provenance/setup") == "cd /tmp\n");
  CHECK(std::filesystem::exists(dir + "/setup.log"));
  CHECK_FALSE(std::filesystem::exists("/tmp/exit_code"));
}

TEST_CASE("a workdir that cannot be entered fails each run with the reason on its stderr") {
  Project p;
  const auto r = p.sweep_in(p.project, "run exp.yaml --label gone --set workdir=/nonexistent/sweep-workdir");
  CHECK(r.exit_code != 0);
  auto db = p.box.db();
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE state = 'failed' AND exit_code = 97") == 2);
  SQLite::Statement q(db, "SELECT run_dir FROM runs");
  while (q.executeStep())
    CHECK_THAT(read_file(q.getColumn(0).getString() + "/stderr"),
               Catch::Contains("/nonexistent/sweep-workdir: No such file or directory") &&
                   Catch::EndsWith("sweep: cannot enter the working directory (workdir) /nonexistent/sweep-workdir\n"));
}

TEST_CASE("a resume from a third directory runs where the campaign was created to run") {
  Project p;
  p.box.write("project/data/scale.txt", "not a number\n");  // every run fails
  auto r = p.sweep_in(p.elsewhere, "run ../project/exp.yaml --label again");
  REQUIRE(r.exit_code != 0);
  p.box.write("project/data/scale.txt", "2\n");  // fixed; resumed from the sandbox, not the project
  r = p.sweep_in(p.box.dir().string(), "run --resume again");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  auto db = p.box.db();
  CHECK(scalar(db, "SELECT sum(value) FROM metrics WHERE name = 'throughput'") == 6);
}
