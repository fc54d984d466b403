// Saying what a local campaign is doing: progress lines in a log, `sweep status`'s runs executing now,
// and `sweep logs` printing or following a run's output. Real processes, a real database.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <string>
#include <thread>

#include "e2e/harness.h"

using namespace e2e;

namespace {

/// Waits for `pid` and returns its exit status (-1 when it did not exit normally).
int reap(int pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// Asks `sweep status` until its answer holds `wanted` (at most 2,400 times, a bound on a hang); returns its
/// last answer.
Result status_when_running(const Sandbox& box, const std::vector<std::string>& args,
                           const std::string& wanted = "running now:") {
  Result r;
  for (int i = 0; i < 2400; ++i) {
    r = box.sweep(args);
    if (r.out.find(wanted) != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return r;
}

}  // namespace

TEST_CASE("watch: a local campaign without a terminal logs its progress on stderr") {
  Sandbox box;
  box.write("p.yaml", "name: p\ntelemetry: false\nmatrix:\n  n: [1, 2, 3]\nworkload:\n  command: echo {{n}}\n");
  const auto run = box.sweep({"run", "p.yaml", "--label", "p"});
  REQUIRE(run.exit_code == 0);
  // The first change is logged at once, the last state at the end; at most one a minute between.
  CHECK_THAT(run.err, Catch::Matches("(.|\n)*sweep: 20\\d\\d-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ done 3, failed 0, running 0, "
                                     "remaining 0, ETA 0:00\n(.|\n)*"));
}

TEST_CASE("watch: sweep status lists the runs executing now with their elapsed time and stdout") {
  Sandbox box;
  const std::string go = box.path("go");
  box.write("w.yaml", "name: w\ntelemetry: false\nmatrix:\n  n: [1, 2]\nrepetitions: 2\nworkload:\n  command: |\n    echo started {{n}}\n"
                      "    while [ ! -e " + go + " ]; do sleep 0.05; done\n");
  const int pid = box.spawn_sweep({"run", "w.yaml", "--label", "w", "--jobs", "2"});
  const Result text = status_when_running(box, {"status", "w"}, "n=2  rep 0");  // both runs have started
  INFO(text.out << text.err);
  CHECK_THAT(text.out, Catch::Contains("\nrunning now:\n  n=1  rep 0  0:0"));
  CHECK_THAT(text.out, Catch::Contains("  n=2  rep 0  0:0"));
  CHECK_THAT(text.out, Catch::Contains(box.path("results/w/")));
  const Result json = box.sweep({"status", "w", "--format", "json"});
  const auto j = nlohmann::json::parse(json.out);
  CHECK(j["version"] == 6);
  REQUIRE(j["running"].size() == 2);
  for (const auto& r : j["running"]) {
    CHECK(r["repetition"] == 0);
    CHECK(r["queued"] == false);  // local runs are never held in a scheduler's queue
    CHECK(r["reason"].is_null());
    CHECK(r["elapsed_s"].get<double>() >= 0);
    CHECK(r["elapsed_s"].get<double>() < 60);
    CHECK_THAT(read_file(r["stdout"].get<std::string>()), Catch::StartsWith("started "));
  }
  CHECK(j["running"][0]["params"]["n"] == "1");
  box.write("go", "");
  CHECK(reap(pid) == 0);
  const Result after = box.sweep({"status", "w", "--format", "json"});
  CHECK(nlohmann::json::parse(after.out)["running"].empty());
  CHECK(box.sweep({"status", "w"}).out.find("running now:") == std::string::npos);
}

TEST_CASE("watch: sweep logs prints a chosen run's stdout or stderr, and refuses a filter it cannot match") {
  Sandbox box;
  box.write("l.yaml", "name: l\ntelemetry: false\nmatrix:\n  n: [1, 2]\n  t: [a, b]\nrepetitions: 2\nworkload:\n"
                      "  command: echo out {{n}} {{t}} {{repetition}}; echo err {{n}} {{t}} >&2\n");
  REQUIRE(box.sweep({"run", "l.yaml", "--label", "l"}).exit_code == 0);
  const auto one = box.sweep({"logs", "l", "--where", "n=2, t=b", "--rep", "0"});
  CHECK(one.exit_code == 0);
  CHECK(one.out == "out 2 b 0\n");
  CHECK_THAT(one.err, Catch::Contains("point n=2, t=b, rep 0, attempt 1 (succeeded): "));
  CHECK(box.sweep({"logs", "l", "--where", "n=1,t=a", "--stderr"}).out == "err 1 a\n");
  // Without --rep: the run of those points that began last.
  CHECK(box.sweep({"logs", "l", "--where", "n=1,t=a"}).out == "out 1 a 1\n");
  const auto typo = box.sweep({"logs", "l", "--where", "m=1"});
  CHECK(typo.exit_code == 2);
  CHECK_THAT(typo.err, Catch::Contains("campaign \"l\" has no parameter \"m\" (its parameters: n, t)"));
  const auto none = box.sweep({"logs", "l", "--where", "n=7"});
  CHECK(none.exit_code == 4);
  CHECK_THAT(none.err, Catch::Contains("no run of campaign \"l\" matches"));
  CHECK(box.sweep({"logs", "l", "--where", "n"}).exit_code == 2);
}

TEST_CASE("watch: sweep logs --follow prints a running run's output as it comes, and ends with the run") {
  Sandbox box;
  const std::string go = box.path("go");
  box.write("f.yaml", "name: f\ntelemetry: false\nmatrix:\n  n: [1]\nworkload:\n  command: |\n    echo first\n"
                      "    while [ ! -e " + go + " ]; do sleep 0.05; done\n    echo second\n    printf 'no newline'\n");
  const int run = box.spawn_sweep({"run", "f.yaml", "--label", "f"});
  REQUIRE_THAT(status_when_running(box, {"status", "f"}).out, Catch::Contains("running now:"));
  const std::string out = box.path("follow.out");
  const int follow = std::system(("cd " + box.dir().string() + " && (" + SWEEP_BIN + " logs f --follow > " + out +
                                  " 2>/dev/null &)").c_str());
  CHECK(follow == 0);
  for (int i = 0; i < 2400 && read_file(out).empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(read_file(out) == "first\n");  // still running: what it printed so far, and it is still following
  CHECK(shell("pgrep -f '" + SWEEP_BIN + " logs f --follow'").exit_code == 0);
  box.write("go", "");
  CHECK(reap(run) == 0);
  for (int i = 0; i < 2400 && read_file(out) != "first\nsecond\nno newline"; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(read_file(out) == "first\nsecond\nno newline");  // and it ended by itself: the file is complete
  bool ended = false;  // it exits by itself once the attempt has ended
  for (int i = 0; i < 2400 && !ended; ++i) {
    ended = shell("pgrep -f '" + SWEEP_BIN + " logs f --follow'").exit_code != 0;
    if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK(ended);
}
