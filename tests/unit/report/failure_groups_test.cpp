#include <catch2/catch.hpp>

#include "report/failure_groups.h"

using namespace sweep;
using namespace sweep::report;

namespace {
store::RunRecord run(std::string point, store::RunState state, std::string reason) {
  store::RunRecord r;
  r.point_id = std::move(point);
  r.state = state;
  r.failure_reason = std::move(reason);
  r.run_dir = "results/c/" + r.point_id;
  return r;
}
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
const std::string kNoFile = with_tail("exited with code 2 (expected 0)", "stderr", "python3: can't open file 'train.py'");
}  // namespace

TEST_CASE("failure groups: same headline and last line of output share a group, in first-run order") {
  const std::string oom = with_tail("exited with code 1 (expected 0)", "stderr", "Traceback\nRuntimeError: CUDA out of memory");
  const std::vector<store::RunRecord> runs{run("p1", store::RunState::failed, kNoFile), run("p2", store::RunState::succeeded, ""),
                                           run("p3", store::RunState::failed, oom), run("p4", store::RunState::failed, kNoFile),
                                           run("p5", store::RunState::failed, "killed by signal 9 (SIGKILL)")};
  const auto groups = group_failures(runs);
  REQUIRE(groups.size() == 3);
  CHECK(groups[0].runs == 2);
  CHECK(groups[0].first->point_id == "p1");
  CHECK(groups[0].cause.tail == "python3: can't open file 'train.py'");
  CHECK(groups[1].first->point_id == "p3");
  CHECK(groups[2].runs == 1);
  CHECK(groups[2].cause.tail.empty());
}

TEST_CASE("failure groups: the run's own directory and digits do not split a cause") {
  std::vector<store::RunRecord> runs;
  for (const std::string p : {"p1", "p2"})
    runs.push_back(run(p, store::RunState::failed,
                       with_tail("exited with code 2 (expected 0)", "stderr",
                                 "python3: can't open file '/home/u/results/c/" + p + "/train.py': [Errno 2] No such file")));
  runs.push_back(run("p3", store::RunState::failed, with_tail("exited with code 1 (expected 0)", "stderr", "ValueError: lr 1.5")));
  runs.push_back(run("p4", store::RunState::failed, with_tail("exited with code 1 (expected 0)", "stderr", "ValueError: lr 20.25")));
  const auto groups = group_failures(runs);
  REQUIRE(groups.size() == 2);
  CHECK(groups[0].runs == 2);
  CHECK(groups[1].runs == 2);
  CHECK(groups[1].cause.tail == "ValueError: lr 1.5");
}

TEST_CASE("failure groups: a different last line is a different cause") {
  const std::vector<store::RunRecord> runs{
      run("a", store::RunState::failed, with_tail("exited with code 1 (expected 0)", "stderr", "ValueError: lr")),
      run("b", store::RunState::failed, with_tail("exited with code 1 (expected 0)", "stderr", "KeyError: 'x'"))};
  CHECK(group_failures(runs).size() == 2);
}

TEST_CASE("failure summary: counts, the first run, its evidence once, and the causes left out") {
  std::vector<store::RunRecord> runs;
  for (int i = 0; i < 3; ++i) runs.push_back(run("p" + std::to_string(i), store::RunState::failed, kNoFile));
  for (int i = 0; i < 4; ++i) runs.push_back(run("q" + std::to_string(i), store::RunState::failed, "cause " + std::to_string(i)));
  store::PointRecord p0{"p0", 0, {{"lr", "0.1", "float", false}}};
  const std::string text = failure_summary(runs, {p0}, 2);
  CHECK(has(text, "why they failed (5 causes):\n"));
  CHECK(has(text, "  3 runs: exited with code 2 (expected 0)\n    first: point p0 (lr=0.1) repetition 0: results/c/p0\n"));
  CHECK(has(text, "    --- its last lines of stderr ---\n    | python3: can't open file 'train.py'\n"));
  CHECK(text.find("can't open file") == text.rfind("can't open file"));
  CHECK(has(text, "  1 run: cause 0\n    point q0 repetition 0: results/c/q0\n"));
  CHECK_FALSE(has(text, "cause 1"));
  CHECK(has(text, "  ... and 3 more causes\n"));
  CHECK(failure_summary({run("ok", store::RunState::succeeded, "")}, {}).empty());
}
