// ExitWatcher in both modes, with plain forked children.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include "exec/exit_watcher.h"

using namespace sweep::exec;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

/// A child that exits with `code` after `delay_ms`.
pid_t child_exiting(int code, unsigned delay_ms) {
  pid_t pid = ::fork();
  if (pid == 0) {
    ::usleep(delay_ms * 1000);
    ::_exit(code);
  }
  REQUIRE(pid > 0);
  return pid;
}

}  // namespace

TEST_CASE("ExitWatcher finds exited children and reaps them, with pidfds or by polling") {
  auto mode = GENERATE(ExitWatcher::Mode::automatic, ExitWatcher::Mode::polling);
  ExitWatcher watcher(mode);
  pid_t slow = child_exiting(1, 5000);
  pid_t fast = child_exiting(7, 50);
  watcher.add(slow);
  watcher.add(fast);
  CHECK(watcher.size() == 2);
  CHECK(watcher.polled() == (mode == ExitWatcher::Mode::polling ? 2u : 0u));

  auto t = Clock::now();
  auto ready = watcher.wait_exited(t + 5s);
  CHECK(Clock::now() - t < 2s);
  REQUIRE(ready == std::vector<pid_t>{fast});
  int status = watcher.reap(fast);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 7);
  CHECK(watcher.size() == 1);

  t = Clock::now();
  CHECK(watcher.wait_exited(t + 100ms).empty());
  CHECK(Clock::now() - t >= 99ms);

  ::kill(slow, SIGKILL);
  CHECK(WTERMSIG(watcher.reap(slow)) == SIGKILL);
  CHECK(watcher.size() == 0);
  CHECK(watcher.wait_exited(Clock::now() + 10s).empty());  // nothing watched: at once
}
