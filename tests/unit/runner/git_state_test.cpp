// git_state with the real git: the commit and the dirty state of an experiment's repository, and a
// repository whose config names a core.fsmonitor program (issue 47): git status would run it as the
// user who records provenance; it is never run.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "runner/provenance.h"

using sweep::runner::git_state;
namespace fs = std::filesystem;

namespace {

struct Repo {
  fs::path dir;
  Repo() {
    std::string t = (fs::temp_directory_path() / "sweep-git-XXXXXX").string();
    REQUIRE(::mkdtemp(t.data()) != nullptr);
    dir = t;
  }
  ~Repo() { fs::remove_all(dir); }
  int git(const std::string& args) const {
    return std::system(("git -C '" + dir.string() + "' -c user.name=t -c user.email=t@t " + args + " > /dev/null 2>&1").c_str());
  }
};

}  // namespace

TEST_CASE("git provenance: the commit and the dirty state, and a repository's core.fsmonitor is never run") {
  Repo repo;
  REQUIRE(repo.git("init -q") == 0);
  std::ofstream(repo.dir / "exp.yaml") << "name: e\n";
  REQUIRE(repo.git("add exp.yaml") == 0);
  REQUIRE(repo.git("commit -q -m one") == 0);
  const fs::path ran = repo.dir / "fsmonitor-ran";
  const fs::path hook = repo.dir / "hook.sh";
  std::ofstream(hook) << "#!/bin/sh\ntouch '" << ran.string() << "'\n";
  fs::permissions(hook, fs::perms::owner_all);
  REQUIRE(repo.git("config core.fsmonitor '" + hook.string() + "'") == 0);

  auto state = git_state(repo.dir.string());
  CHECK(state.commit.size() == 40);
  CHECK(state.dirty == false);
  std::ofstream(repo.dir / "exp.yaml", std::ios::app) << "matrix: {}\n";
  state = git_state(repo.dir.string());
  CHECK(state.dirty == true);
  CHECK_FALSE(fs::exists(ran));
  // The hook itself works: git status, as a user would run it, runs it.
  repo.git("status");
  CHECK(fs::exists(ran));
}

TEST_CASE("git provenance: outside a repository there is no commit and no dirty state") {
  Repo plain;
  const auto state = git_state(plain.dir.string());
  CHECK(state.commit.empty());
  CHECK_FALSE(state.dirty.has_value());
}
