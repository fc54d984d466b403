// capture(): short helper commands with their output, and leftovers found by their marker.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "exec/capture.h"
#include "exec/orphans.h"
#include "test_support.h"

using namespace sweep::exec;
using namespace sweep::exec::test;
using namespace std::chrono_literals;

TEST_CASE("capture() returns exit code, stdout and stderr of a quick command, every time") {
  int timed_out = 0, wrong = 0;
  for (int i = 0; i < 100; ++i) {
    auto r = capture({"sh", "-c", "echo out; echo err >&2; exit 3"});
    REQUIRE(r.has_value());
    timed_out += r->timed_out ? 1 : 0;
    wrong += (r->exit_code != 3 || r->out != "out\n" || r->err != "err\n") ? 1 : 0;
  }
  CHECK(timed_out == 0);
  CHECK(wrong == 0);
}

TEST_CASE("capture() kills a command that outlives its timeout") {
  auto t = std::chrono::steady_clock::now();
  auto r = capture({"sleep", "30"}, "", 200ms);
  REQUIRE(r.has_value());
  CHECK(r->timed_out);
  CHECK(r->exit_code == -1);
  CHECK(std::chrono::steady_clock::now() - t < 5s);
}

TEST_CASE("capture() returns nullopt for a program that does not exist") {
  CHECK_FALSE(capture({"sweep-no-such-program-xyz"}).has_value());
  CHECK_FALSE(capture({"/no/such/dir/sweep-program"}).has_value());
  CHECK_FALSE(capture({}).has_value());
}

TEST_CASE("capture() runs a program named by its path, absolute or relative, not looked up in PATH") {
  const auto absolute = capture({"/bin/sh", "-c", "echo a"});
  REQUIRE(absolute.has_value());
  CHECK(absolute->out == "a\n");
  const auto relative = capture({"./sh", "-c", "echo r"}, "/bin");
  REQUIRE(relative.has_value());
  CHECK(relative->out == "r\n");
}

TEST_CASE("kill_job_leftovers kills the processes that carry the run's marker") {
  TempDir dir;
  std::string marker = std::string(kJobMarker) + "=" + dir.path();
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    char* argv[] = {const_cast<char*>("sleep"), const_cast<char*>("30"), nullptr};
    char* envp[] = {marker.data(), nullptr};
    ::execve("/bin/sleep", argv, envp);
    ::_exit(127);
  }
  auto until = std::chrono::steady_clock::now() + 120s;  // until the child has exec'd with its marker (a bound on a hang)
  while (read_file("/proc/" + std::to_string(pid) + "/environ").find(marker) == std::string::npos &&
         std::chrono::steady_clock::now() < until)
    ::usleep(5000);
  CHECK(kill_job_leftovers(dir.path() + "/other") == 0);
  CHECK(kill_job_leftovers(dir.path()) == 1);
  int status = 0;
  CHECK(::waitpid(pid, &status, 0) == pid);
  CHECK(WTERMSIG(status) == SIGKILL);
}
