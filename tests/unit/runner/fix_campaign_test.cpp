// runner/reparse.h and runner/rerun.h, their pure parts: the recorded outcome read back, which runs a
// reparse decides again, and which runs or points a rerun or extend selects.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "runner/campaign_removal.h"
#include "runner/reparse.h"
#include "runner/rerun.h"
#include "temp_dir.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::runner;

namespace {

store::RunRecord run(std::int64_t id, const char* point, store::RunState state, const char* cls = "") {
  store::RunRecord r;
  r.id = id;
  r.point_id = point;
  r.attempt = 1;
  r.state = state;
  r.failure_class = cls;
  return r;
}

std::vector<store::PointRecord> points() {
  return {store::PointRecord{"a", 0, {{"batch", "16", "int", false}, {"lr", "0.01", "float", false}}},
          store::PointRecord{"b", 1, {{"batch", "32", "int", false}, {"lr", "0.01", "float", false}}},
          store::PointRecord{"c", 2, {{"batch", "32", "int", false}, {"lr", "0.5", "float", false}}}};
}

}  // namespace

TEST_CASE("parse_exit_status reads format 1 and nothing else") {
  const auto o = parse_exit_status("format=1\nexit_code=2\nsignal=0\ntimed_out=0\nelapsed_s=1.500000\nstate=failed\n");
  REQUIRE(o);
  CHECK(o->exit_code == 2);
  CHECK(o->elapsed_s == 1.5);
  CHECK_FALSE(o->timed_out);
  CHECK_FALSE(parse_exit_status("format=2\nexit_code=0\n"));
  CHECK_FALSE(parse_exit_status("format=1\nexit_code=x\nsignal=0\ntimed_out=0\nelapsed_s=1\n"));
  CHECK_FALSE(parse_exit_status(""));
}

TEST_CASE("a reparse decides again only what the metrics decided") {
  CHECK(decided_by_metrics(run(1, "a", store::RunState::succeeded)));
  CHECK(decided_by_metrics(run(1, "a", store::RunState::failed, "missing_metric")));
  CHECK(decided_by_metrics(run(1, "a", store::RunState::failed, "criterion")));
  CHECK_FALSE(decided_by_metrics(run(1, "a", store::RunState::failed, "exit_code")));
  CHECK_FALSE(decided_by_metrics(run(1, "a", store::RunState::failed, "timeout")));
  CHECK_FALSE(decided_by_metrics(run(1, "a", store::RunState::pending)));

  store::AttemptResult fresh;
  fresh.state = store::RunState::succeeded;
  fresh.metrics.push_back({"t", 0, 3.0, "", ""});
  fresh.provenance = {{"matches.t", "1"}, {"job.nodes", "n1"}};
  const auto redone = reparsed(run(4, "a", store::RunState::failed, "missing_metric"), fresh);
  CHECK(redone.redecided);
  CHECK(redone.state == store::RunState::succeeded);
  CHECK(redone.metrics.size() == 1);
  CHECK(redone.matches == store::KeyValues{{"matches.t", "1"}});
  const auto kept = reparsed(run(4, "a", store::RunState::failed, "exit_code"), fresh);
  CHECK_FALSE(kept.redecided);
  CHECK(kept.state == store::RunState::failed);
  CHECK(kept.failure_class == "exit_code");
  CHECK(kept.metrics.size() == 1);
}

TEST_CASE("a rerun selects by parameter value, state and run id") {
  const std::vector<store::RunRecord> runs{run(1, "a", store::RunState::failed, "exit_code"),
                                           run(2, "b", store::RunState::succeeded),
                                           run(3, "c", store::RunState::failed, "exit_code"),
                                           run(4, "c", store::RunState::running)};
  RunSelection s;
  s.where = {parse_where("batch = 32")};
  CHECK(select_runs(points(), runs, s) == std::vector<std::int64_t>{3});
  s.state = "all";
  CHECK(select_runs(points(), runs, s) == std::vector<std::int64_t>{2, 3});  // never a running one
  s.where = {parse_where("lr=1e-2")};                                          // numbers compare as numbers
  CHECK(select_runs(points(), runs, s) == std::vector<std::int64_t>{1, 2});
  s.runs = {"2"};  // a run id
  CHECK(select_runs(points(), runs, s) == std::vector<std::int64_t>{2});
  s.where.clear();
  s.runs = {"a.rep0", "c"};  // as sweep show names runs, and a point's every run
  CHECK(select_runs(points(), runs, s) == std::vector<std::int64_t>{1, 3});
  s.runs = {"a.rep1"};
  CHECK_THROWS_WITH(select_runs(points(), runs, s), Catch::Contains("no run of the campaign has that name"));
  s = RunSelection{{parse_where("size=1")}, "all", {}};
  CHECK_THROWS_WITH(select_points(points(), s), Catch::Contains("no parameter \"size\"") && Catch::Contains("batch, lr"));
  s = RunSelection{{}, "done", {}};
  CHECK_THROWS_WITH(select_points(points(), s), Catch::Contains("expected failed, succeeded or all"));
  CHECK_THROWS_WITH(parse_where("batch"), Catch::Contains("expected parameter=value"));
}

TEST_CASE("remove_tree_at removes links, never what they point to") {
  namespace fs = std::filesystem;
  TempDir dir;
  fs::create_directories(dir.file("outside/deep"));
  std::ofstream(dir.file("outside/deep/keep.txt")) << "keep\n";
  fs::create_directories(dir.file("root/a/b"));
  std::ofstream(dir.file("root/a/b/out.txt")) << "x";
  fs::create_directory_symlink(dir.file("outside"), dir.file("root/link"));
  fs::create_directory_symlink(dir.file("outside/deep"), dir.file("root/a/b/deeplink"));
  fs::create_symlink(dir.file("outside/deep/keep.txt"), dir.file("root/a/file-link"));
  const int parent = ::open(dir.path.c_str(), O_RDONLY | O_DIRECTORY);
  REQUIRE(parent >= 0);
  CHECK(remove_tree_at(parent, "root") == 0);
  ::close(parent);
  CHECK_FALSE(fs::exists(fs::symlink_status(dir.file("root"))));
  CHECK(fs::exists(dir.file("outside/deep/keep.txt")));
}
