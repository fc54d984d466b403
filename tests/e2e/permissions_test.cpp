// Files sweep creates never have wider permissions than the user's umask allows: the results
// directory, the database, run directories, job scripts and reports.
#include <catch2/catch.hpp>

#include <filesystem>

#include "e2e/harness.h"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

/// Runs a campaign and its report with `umask` in force.
void run_with_umask(const Sandbox& box, const std::string& umask) {
  box.write("e.yaml", "name: e\nmatrix:\n  x: [1, 2]\nworkload:\n  command: echo x={{x}} > out.txt\n");
  const std::string cd = "cd " + box.dir().string() + " && umask " + umask + " && " + SWEEP_BIN;
  const auto run = shell(cd + " run e.yaml --label e");
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  REQUIRE(shell(cd + " report e --no-figures").exit_code == 0);
}

/// Paths under results/ and reports/ whose mode has any bit of `forbidden`.
std::vector<std::string> wider_than(const Sandbox& box, fs::perms forbidden) {
  std::vector<std::string> out;
  for (const char* top : {"results", "reports"}) {
    const fs::path root = box.path(top);
    if ((fs::status(root).permissions() & forbidden) != fs::perms::none) out.push_back(top);
    for (const auto& e : fs::recursive_directory_iterator(root))
      if ((e.symlink_status().permissions() & forbidden) != fs::perms::none) out.push_back(e.path().string());
  }
  return out;
}

}  // namespace

TEST_CASE("with umask 077 nothing sweep creates is readable by group or others") {
  Sandbox box;
  run_with_umask(box, "077");
  CHECK(wider_than(box, fs::perms::group_all | fs::perms::others_all).empty());
  // The job scripts are still executable by their owner.
  const auto scripts = shell("find " + box.path("results/e") + " -name run.sh -perm -u+x | wc -l");
  CHECK(scripts.out == "2\n");
}

TEST_CASE("with umask 027 job scripts are executable by the group but nothing is open to others") {
  Sandbox box;
  run_with_umask(box, "027");
  CHECK(wider_than(box, fs::perms::others_all | fs::perms::group_write).empty());
  const auto scripts = shell("find " + box.path("results/e") + " -name run.sh -perm -g+x | wc -l");
  CHECK(scripts.out == "2\n");
}

TEST_CASE("with umask 002 sweep runs and reports twice in the same directories, none of which the group can write") {
  // A user-private group's default umask: directories sweep made group-writable would be refused as
  // untrusted by its next command.
  Sandbox box;
  run_with_umask(box, "002");
  const std::string cd = "cd " + box.dir().string() + " && umask 002 && " + SWEEP_BIN;
  const auto again = shell(cd + " run e.yaml --label e2 && " + cd + " report e2 --no-figures && " + cd +
                           " run e.yaml --label d --dry-run");
  INFO(again.out << again.err);
  CHECK(again.exit_code == 0);
  std::vector<std::string> group_writable;
  for (const char* top : {"results", "reports"})
    for (const auto& e : fs::recursive_directory_iterator(box.path(top)))
      if (e.is_directory() && (e.status().permissions() & fs::perms::group_write) != fs::perms::none)
        group_writable.push_back(e.path().string());
  CHECK(group_writable.empty());
  CHECK((fs::status(box.path("results/sweep.db")).permissions() & fs::perms::group_write) == fs::perms::none);
}
