// Renders hostile values into a real /bin/sh command line and checks that each arrives as one literal
// word: printed back byte for byte, with nothing executed.
#include <catch2/catch.hpp>

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <string>

#include "templating/render.h"

extern char** environ;

using namespace sweep::templating;

namespace {

/// Runs `/bin/sh -c script` and returns everything it writes to stdout; REQUIREs a zero exit status.
std::string run_sh(const std::string& script) {
  std::array<int, 2> pipe_fds{};
  REQUIRE(pipe(pipe_fds.data()) == 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  std::string sh = "/bin/sh", dash_c = "-c", body = script;
  std::array<char*, 4> argv{sh.data(), dash_c.data(), body.data(), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, "/bin/sh", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  REQUIRE(spawned == 0);
  std::string out;
  std::array<char, 4096> buffer{};
  for (ssize_t n; (n = read(pipe_fds[0], buffer.data(), buffer.size())) > 0;)
    out.append(buffer.data(), static_cast<std::size_t>(n));
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  return out;
}

bool exists(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0;
}

}  // namespace

TEST_CASE("hostile values reach a real shell as one literal word") {
  std::string dir = "/tmp/sweep-quote-XXXXXX";
  REQUIRE(mkdtemp(dir.data()) != nullptr);
  const std::string canary = dir + "/canary";
  const std::vector<std::string> hostile{
      "$(touch " + canary + ")",
      "`touch " + canary + "`",
      "a'; touch " + canary + "; echo '",
      "'\"'\"'; touch " + canary,
      "x\ntouch " + canary,
      "; touch " + canary,
      "| touch " + canary,
      "&& touch " + canary,
      "$(touch${IFS}" + canary + ")",
      "\\'; touch " + canary + " #",
      "",
      "-n",
      "--version",
      "*",
      "~",
      "$HOME $((1+1)) ${PATH}",
      "it's",
      "trailing newlines\n\n",
      "tab\there",
      "[a]?",
      "h\xc3\xa9llo \xff\x01",
      "'",
      "''",
  };
  const Template t("printf '%s\\n' {{v}}", sweep::SourceLocation{"test", 1, 1});
  for (const std::string& value : hostile) {
    INFO("value: " << value);
    CHECK(run_sh(t.render({{"v", value}})) == value + "\n");
  }
  CHECK_FALSE(exists(canary));
  rmdir(dir.c_str());
}
