// LocalExecutor with real processes: exit status, captured output, environment, cwd, stdin,
// the parallelism cap, spawn failures and wait()'s timing contract.
#include <catch2/catch.hpp>

#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <sstream>

#include "exec/local_executor.h"
#include "test_support.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::exec;
using namespace sweep::exec::test;
using namespace std::chrono_literals;

namespace {

Job make_job(const TempDir& dir, const std::string& id, const std::string& body) {
  std::filesystem::create_directory(dir / id);
  return Job{id, write_script(dir / (id + ".sh"), body), dir / id, std::nullopt, {}};
}

/// Waits (up to 10 s in all) for `n` outcomes.
std::vector<Outcome> collect(LocalExecutor& ex, std::size_t n) {
  std::vector<Outcome> all;
  auto end = std::chrono::steady_clock::now() + 10s;
  while (all.size() < n && std::chrono::steady_clock::now() < end)
    for (Outcome& o : ex.wait(1s)) all.push_back(std::move(o));
  return all;
}

Outcome run_one(const Job& job) {
  LocalExecutor ex(1);
  ex.start(job);
  auto outcomes = collect(ex, 1);
  REQUIRE(outcomes.size() == 1);
  return outcomes[0];
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

TEST_CASE("a job's exit status is reported") {
  TempDir dir;
  Outcome ok = run_one(make_job(dir, "ok", "exit 0"));
  CHECK(ok.id == "ok");
  CHECK(ok.exit_code == 0);
  CHECK(ok.signal == 0);
  CHECK_FALSE(ok.timed_out);
  CHECK(ok.elapsed_s > 0);
  CHECK(ok.elapsed_s < 60);  // a bound on a hang, not a speed
  Outcome three = run_one(make_job(dir, "three", "exit 3"));
  CHECK(three.exit_code == 3);
  CHECK(three.signal == 0);
}

TEST_CASE("stdout and stderr go to work_dir/stdout and work_dir/stderr, truncated") {
  TempDir dir;
  Job job = make_job(dir, "j", "printf 'a=1\\nb=2\\n'; printf 'oops\\n' >&2");
  write_script(job.work_dir + "/stdout", "stale content that must disappear");
  CHECK(run_one(job).exit_code == 0);
  CHECK(read_file(job.work_dir + "/stdout") == "a=1\nb=2\n");
  CHECK(read_file(job.work_dir + "/stderr") == "oops\n");
}

TEST_CASE("the job gets the inherited environment plus job.env, which wins") {
  TempDir dir;
  ::setenv("SWEEP_TEST_KEPT", "kept", 1);
  ::setenv("SWEEP_TEST_REPLACED", "old", 1);
  Job job = make_job(dir, "j", "echo \"$SWEEP_TEST_KEPT $SWEEP_TEST_REPLACED $SWEEP_TEST_ADDED\"");
  job.env = {{"SWEEP_TEST_REPLACED", "new"}, {"SWEEP_TEST_ADDED", "a b=c"}};
  CHECK(run_one(job).exit_code == 0);
  CHECK(read_file(job.work_dir + "/stdout") == "kept new a b=c\n");
  ::unsetenv("SWEEP_TEST_KEPT");
  ::unsetenv("SWEEP_TEST_REPLACED");
}

TEST_CASE("the job runs in work_dir with argv[0] = script and stdin from /dev/null") {
  TempDir dir;
  Job job = make_job(dir, "j", "pwd -P; echo \"$0\"; cat; echo done");
  CHECK(run_one(job).exit_code == 0);
  std::string expected = std::filesystem::canonical(job.work_dir).string() + "\n" + job.script + "\ndone\n";
  CHECK(read_file(job.work_dir + "/stdout") == expected);
}

TEST_CASE("capacity counts down to 0 and start() then refuses") {
  TempDir dir;
  LocalExecutor ex(2);
  CHECK(ex.name() == "local");
  CHECK(ex.capacity() == 2);
  ex.start(make_job(dir, "a", "sleep 5"));
  CHECK(ex.capacity() == 1);
  ex.start(make_job(dir, "b", "sleep 5"));
  CHECK(ex.capacity() == 0);
  CHECK(ex.active() == 2);
  Job third = make_job(dir, "c", "exit 0");
  CHECK_THROWS_AS(ex.start(third), Error);
  CHECK(ex.active() == 2);
  ex.cancel_all();
  CHECK(ex.active() == 2);  // outcomes are still to be returned ...
  CHECK(ex.capacity() == 0);
  CHECK(ex.wait(0ms).size() == 2);  // ... and wait() hands them out
  CHECK(ex.capacity() == 2);
}

TEST_CASE("no more than max_parallel jobs run at once") {
  TempDir dir;
  std::string log = dir / "log";
  LocalExecutor ex(2);
  int started = 0, done = 0;
  while (done < 6) {
    while (started < 6 && ex.capacity() > 0) {
      Job job = make_job(dir, "j" + std::to_string(started++), "echo + >> \"$LOG\"; sleep 0.1; echo - >> \"$LOG\"");
      job.env = {{"LOG", log}};
      ex.start(job);
    }
    for (const Outcome& o : ex.wait(5s)) done += o.exit_code == 0 ? 1 : 100;
  }
  CHECK(done == 6);
  std::istringstream lines(read_file(log));
  int now = 0, most = 0, events = 0;
  for (std::string line; std::getline(lines, line); ++events) {
    now += line == "+" ? 1 : -1;
    most = std::max(most, now);
  }
  CHECK(events == 12);
  CHECK(most == 2);
}

TEST_CASE("wait() returns every job that has finished, each exactly once") {
  TempDir dir;
  LocalExecutor ex(3);
  for (const char* id : {"a", "b", "c"}) ex.start(make_job(dir, id, "exit 0"));
  auto until = std::chrono::steady_clock::now() + 10s;
  std::vector<std::string> ids;
  while (ids.size() < 3 && std::chrono::steady_clock::now() < until)
    for (const Outcome& o : ex.wait(1s)) ids.push_back(o.id);
  std::sort(ids.begin(), ids.end());
  CHECK(ids == std::vector<std::string>{"a", "b", "c"});
  CHECK(ex.active() == 0);
  CHECK(ex.wait(1s).empty());
}

TEST_CASE("a job that cannot be started throws Error(io) and leaves nothing behind") {
  TempDir dir;
  LocalExecutor ex(2);
  Job missing = make_job(dir, "missing", "exit 0");
  missing.script = dir / "no-such-script.sh";
  Job not_executable = make_job(dir, "plain", "exit 0");
  ::chmod(not_executable.script.c_str(), 0644);
  Job no_dir = make_job(dir, "nodir", "exit 0");
  no_dir.work_dir = dir / "no-such-dir";
  Job bad_env = make_job(dir, "env", "exit 0");
  bad_env.env = {{"A=B", "c"}};
  for (const Job& job : {missing, not_executable, no_dir, bad_env}) {
    INFO(job.id);
    try {
      ex.start(job);
      FAIL("start() did not throw");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::io);
      CHECK_THAT(e.message(), Catch::StartsWith("cannot start job " + job.id + ": "));
    }
    CHECK(ex.active() == 0);
    CHECK(ex.capacity() == 2);
  }
  CHECK(ex.wait(1s).empty());
  CHECK(::waitpid(-1, nullptr, WNOHANG) == -1);  // no child, not even a zombie
}

TEST_CASE("wait() returns at once when nothing is active") {
  LocalExecutor ex(1);
  auto t = std::chrono::steady_clock::now();
  CHECK(ex.wait(120s).empty());
  CHECK(seconds_since(t) < 60);  // not the 120 s it was allowed, however busy the machine
}

TEST_CASE("wait() gives up after max_wait while a job runs") {
  TempDir dir;
  LocalExecutor ex(1);
  ex.start(make_job(dir, "slow", "sleep 120"));
  auto t = std::chrono::steady_clock::now();
  CHECK(ex.wait(200ms).empty());
  CHECK(seconds_since(t) >= 0.19);
  CHECK(seconds_since(t) < 60);  // by itself, not when the job ends at 120 s
  CHECK(ex.active() == 1);
}
