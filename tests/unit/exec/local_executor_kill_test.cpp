// LocalExecutor ending processes: timeouts, signals, cancel_all, the destructor, leftovers in the
// process group, and the controller's death.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "exec/local_executor.h"
#include "test_support.h"

using namespace sweep::exec;
using namespace sweep::exec::test;
using namespace std::chrono_literals;

namespace {

Job make_job(const TempDir& dir, const std::string& id, const std::string& body) {
  std::filesystem::create_directory(dir / id);
  return Job{id, write_script(dir / (id + ".sh"), body), dir / id, std::nullopt, {}};
}

Outcome finish(LocalExecutor& ex) {
  auto end = std::chrono::steady_clock::now() + 60s;  // a bound on a hang
  while (std::chrono::steady_clock::now() < end) {
    auto outcomes = ex.wait(1s);
    if (!outcomes.empty()) return outcomes.at(0);
  }
  FAIL("the job did not finish");
  return {};
}

pid_t read_pid(const std::string& path) {
  std::string text = wait_for_file(path, 5s);
  REQUIRE_FALSE(text.empty());
  return static_cast<pid_t>(std::stol(text));
}

/// The script starts a grandchild `sleep 1000`, writes its pid to `gc`, and waits for it.
const char* kWithGrandchild = "sleep 1000 & echo $! > gc.tmp; mv gc.tmp gc; wait";

}  // namespace

TEST_CASE("a timed-out job's whole process group is terminated") {
  TempDir dir;
  LocalExecutor ex(1, 120s);
  Job job = make_job(dir, "t", kWithGrandchild);
  job.timeout_s = 0.3;
  ex.start(job);
  Outcome o = finish(ex);
  CHECK(o.timed_out);
  CHECK(o.signal == SIGTERM);
  CHECK(o.exit_code == -1);
  CHECK(o.elapsed_s >= 0.29);
  CHECK(o.elapsed_s < 60);  // SIGTERM sufficed: no wait for the 120 s kill_grace
  CHECK(wait_gone(read_pid(job.work_dir + "/gc"), 3s));
}

TEST_CASE("a job that ignores SIGTERM gets SIGKILL after kill_grace") {
  TempDir dir;
  LocalExecutor ex(1, 200ms);
  Job job = make_job(dir, "t", std::string("trap '' TERM; ") + kWithGrandchild);
  job.timeout_s = 0.2;
  ex.start(job);
  Outcome o = finish(ex);
  CHECK(o.timed_out);
  CHECK(o.signal == SIGKILL);
  CHECK(o.elapsed_s >= 0.39);
  CHECK(o.elapsed_s < 60);  // a bound on a hang
  CHECK(wait_gone(read_pid(job.work_dir + "/gc"), 3s));
}

TEST_CASE("a job that finishes within its timeout is not timed out") {
  TempDir dir;
  LocalExecutor ex(1);
  Job job = make_job(dir, "t", "exit 4");
  job.timeout_s = 10;
  ex.start(job);
  Outcome o = finish(ex);
  CHECK_FALSE(o.timed_out);
  CHECK(o.exit_code == 4);
}

TEST_CASE("a job killed by a signal reports the signal and exit_code -1") {
  TempDir dir;
  LocalExecutor ex(1);
  ex.start(make_job(dir, "k", "kill -9 $$"));
  Outcome o = finish(ex);
  CHECK(o.signal == 9);
  CHECK(o.exit_code == -1);
  CHECK_FALSE(o.timed_out);
}

TEST_CASE("what a job leaves running in its process group is killed when it exits") {
  TempDir dir;
  LocalExecutor ex(1);
  Job job = make_job(dir, "bg", "sleep 1000 & echo $! > gc.tmp; mv gc.tmp gc");
  ex.start(job);
  CHECK(finish(ex).exit_code == 0);
  CHECK(wait_gone(read_pid(job.work_dir + "/gc"), 3s));
}

TEST_CASE("cancel_all terminates every job and the next wait() returns their outcomes") {
  TempDir dir;
  LocalExecutor ex(2, 5s);
  Job a = make_job(dir, "a", kWithGrandchild), b = make_job(dir, "b", "exec sleep 1000");
  ex.start(a);
  ex.start(b);
  pid_t grandchild = read_pid(a.work_dir + "/gc");
  auto t = std::chrono::steady_clock::now();
  ex.cancel_all();
  CHECK(std::chrono::steady_clock::now() - t < 3s);  // SIGTERM sufficed
  CHECK(wait_gone(grandchild, 3s));  // not our child: it dies asynchronously
  auto outcomes = ex.wait(10s);
  REQUIRE(outcomes.size() == 2);
  for (const Outcome& o : outcomes) {
    CHECK(o.signal == SIGTERM);
    CHECK_FALSE(o.timed_out);
  }
  CHECK(ex.active() == 0);
}

TEST_CASE("the destructor kills and reaps whatever is still running") {
  TempDir dir;
  Job job = make_job(dir, "d", "echo $$ > pid.tmp; mv pid.tmp pid; exec sleep 1000");
  pid_t pid = 0;
  {
    LocalExecutor ex(1, 200ms);
    ex.start(job);
    pid = read_pid(job.work_dir + "/pid");
    CHECK_FALSE(process_gone(pid));
  }
  CHECK(::waitpid(pid, nullptr, WNOHANG) == -1);  // reaped already: not our child any more
  CHECK(process_gone(pid));
}

TEST_CASE("a job dies with its controller, even when the controller is SIGKILLed") {
  TempDir dir;
  Job job = make_job(dir, "orphan", "echo $$ > pid.tmp; mv pid.tmp pid; exec sleep 30");
  pid_t controller = ::fork();
  REQUIRE(controller >= 0);
  if (controller == 0) {
    LocalExecutor ex(1);
    ex.start(job);
    ::pause();  // until the test kills us; never returns normally
    ::_exit(1);
  }
  pid_t pid = read_pid(job.work_dir + "/pid");
  CHECK_FALSE(process_gone(pid));
  ::kill(controller, SIGKILL);
  ::waitpid(controller, nullptr, 0);
  CHECK(wait_gone(pid, 5s));
}
