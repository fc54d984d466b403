// ScratchDirectory with real signals to a real child process (fork), and the stale directory a SIGKILL
// leaves removed by the next one.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "temp_dir.h"
#include "util/scratch_directory.h"

using namespace sweep;
namespace fs = std::filesystem;

namespace {

struct ScratchChild {
  pid_t pid = -1;
  std::string path;  // the child's scratch directory, once it said so
};

/// A child that makes a scratch directory under `parent`, writes its registered file, says the directory's
/// path on a pipe and waits for a signal. The parent reads the line: no sleep.
ScratchChild start_scratch_child(const fs::path& parent) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(fds[0]);
    const ScratchDirectory dir(parent, "sweep-scratch-test-", {"copy.sqlite", "copy.sqlite-journal"});
    std::ofstream(dir.path() / "copy.sqlite") << "data";
    const std::string line = dir.path().string() + "\n";
    if (::write(fds[1], line.data(), line.size()) != static_cast<ssize_t>(line.size())) ::_exit(3);
    for (;;) ::pause();
  }
  ::close(fds[1]);
  ScratchChild child{pid, ""};
  char c;
  while (::read(fds[0], &c, 1) == 1 && c != '\n') child.path += c;
  ::close(fds[0]);
  return child;
}

int wait_for_signal(pid_t pid) {
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  return WIFSIGNALED(status) ? WTERMSIG(status) : -1;
}

}  // namespace

TEST_CASE("scratch directory: SIGTERM, SIGINT or SIGHUP removes it and ends the process by that signal") {
  const TempDir base;
  for (const int signal : {SIGTERM, SIGINT, SIGHUP}) {
    INFO("signal " << signal);
    const ScratchChild child = start_scratch_child(base.path);
    REQUIRE_FALSE(child.path.empty());
    CHECK(fs::exists(fs::path(child.path) / "copy.sqlite"));
    REQUIRE(::kill(child.pid, signal) == 0);
    CHECK(wait_for_signal(child.pid) == signal);
    CHECK_FALSE(fs::exists(child.path));
  }
  CHECK(fs::is_empty(base.path));
}

TEST_CASE("scratch directory: one a SIGKILL left is removed by the next, a live process's and a symlink are not") {
  const TempDir base;
  const ScratchChild child = start_scratch_child(base.path);
  REQUIRE_FALSE(child.path.empty());
  REQUIRE(::kill(child.pid, SIGKILL) == 0);
  CHECK(wait_for_signal(child.pid) == SIGKILL);
  REQUIRE(fs::exists(child.path));  // nothing could clean up
  // This process is alive: its directory stays. A symlink named like a dead process's is never followed.
  const fs::path live = base.path / ("sweep-scratch-test-" + std::to_string(::getpid()) + "-live");
  fs::create_directory(live);
  const fs::path target = base.path / "kept";
  fs::create_directory(target);
  std::ofstream(target / "file") << "x";
  const fs::path link = base.path / ("sweep-scratch-test-" + std::to_string(child.pid) + "-link");
  fs::create_directory_symlink(target, link);
  {
    const ScratchDirectory next(base.path, "sweep-scratch-test-", {});
    CHECK_FALSE(fs::exists(child.path));
    CHECK(fs::exists(live));
    CHECK(fs::is_symlink(link));
    CHECK(fs::exists(target / "file"));
    CHECK_THROWS(ScratchDirectory(base.path, "sweep-scratch-test-", {}));  // one at a time
  }
  CHECK(remove_stale_scratch(base.path, "sweep-scratch-test-") == 0);
}

TEST_CASE("scratch directory: the handlers before it are back when it goes") {
  struct sigaction before {};
  REQUIRE(::sigaction(SIGTERM, nullptr, &before) == 0);
  {
    const TempDir base;
    const ScratchDirectory dir(base.path, "sweep-scratch-test-", {"f"});
    struct sigaction during {};
    REQUIRE(::sigaction(SIGTERM, nullptr, &during) == 0);
    CHECK(during.sa_handler != before.sa_handler);
  }
  struct sigaction after {};
  REQUIRE(::sigaction(SIGTERM, nullptr, &after) == 0);
  CHECK(after.sa_handler == before.sa_handler);
}
