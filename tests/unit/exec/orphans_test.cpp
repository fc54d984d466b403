// Finding processes by working directory: a real `sleep` started in a temporary directory.
#include <catch2/catch.hpp>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <thread>

#include "exec/orphans.h"
#include "temp_dir.h"

extern char** environ;

TEST_CASE("processes_in counts live processes of a program by their working directory") {
  TempDir dir, other;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addchdir_np(&fa, dir.path.c_str());
  char sleep[] = "sleep", thirty[] = "30";
  char* argv[] = {sleep, thirty, nullptr};
  pid_t pid = -1;
  REQUIRE(posix_spawnp(&pid, "sleep", &fa, nullptr, argv, environ) == 0);
  posix_spawn_file_actions_destroy(&fa);

  CHECK(sweep::exec::processes_in(dir.path.string(), "sleep") == 1);
  CHECK(sweep::exec::processes_in(dir.path.string() + "/.", "sleep") == 1);  // the same directory
  CHECK(sweep::exec::processes_in(dir.path.string(), "sbatch") == 0);        // another program
  CHECK(sweep::exec::processes_in(other.path.string(), "sleep") == 0);       // another directory
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  CHECK(sweep::exec::processes_in(dir.path.string(), "sleep") == 0);
  CHECK(sweep::exec::processes_in(dir.path.string() + "/missing", "sleep") == 0);
}
