// A second member of the lab group plants each case of issue 32 item 2 in a results directory the
// group shares: every command refuses or is unaffected, and the victim's private file never changes.
// Needs root, to act as a second user (CI runs as root): useradd makes sweep-other once, setpriv acts
// as it. Without root each case is skipped with a SKIP warning.
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "e2e/harness.h"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

constexpr const char* kOther = "sweep-other";

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// Whether the second user is there (made here when missing); false, with a SKIP warning, when this
/// process is not root.
bool second_user() {
  if (::geteuid() != 0) {
    WARN("SKIP: this test acts as a second user (useradd, setpriv), which needs root; CI runs as root");
    return false;
  }
  const auto made = shell(std::string("id -u ") + kOther + " >/dev/null 2>&1 || useradd --no-create-home --user-group " +
                          kOther + " 2>&1 || id -u " + kOther);
  INFO(made.out << made.err);
  REQUIRE(made.exit_code == 0);
  return true;
}

/// The second user's uid (`flag` -u) or gid (-g).
std::string id_of(const char* flag) {
  const std::string out = shell(std::string("id ") + flag + " " + kOther).out;
  return out.substr(0, out.find('\n'));
}

/// Runs `command` with sh as the second user, in `dir`.
Result as_other(const std::string& dir, const std::string& command) {
  return shell("cd " + quoted(dir) + " && setpriv --reuid=" + id_of("-u") + " --regid=" + id_of("-g") +
               " --clear-groups sh -c " + quoted(command) + " 2>&1");
}

/// The victim's sandbox: the victim's private file (mode 0600), and results/ that the victim shares
/// with the second user's group, sticky as a shared directory must be (util/safe_files.h).
struct Lab {
  Sandbox box;
  std::string private_file;
  std::string private_text = "the victim's private notes\n";
  Lab() {
    ::chmod(box.dir().c_str(), 0755);
    private_file = box.write("private.txt", private_text);
    ::chmod(private_file.c_str(), 0600);
    fs::create_directory(box.path("results"));
    REQUIRE(shell("chgrp " + std::string(kOther) + " " + quoted(box.path("results"))).exit_code == 0);
    ::chmod(box.path("results").c_str(), 01775);
    box.write("e.yaml", "name: e\nmatrix:\n  x: [1, 2]\nworkload:\n  command: echo value {{x}}\n");
  }
  /// `sweep <args>` as the victim, with umask 002 as a lab that shares by group has it.
  Result victim(const std::string& args) const {
    return shell("cd " + quoted(box.dir().string()) + " && umask 002 && " + SWEEP_BIN + " " + args);
  }
  bool private_unchanged() const { return read_file(private_file) == private_text; }
};

}  // namespace

TEST_CASE("a results directory the group can write is refused until the lab opts in, and then only if sticky") {
  if (!second_user()) return;
  Lab lab;
  const auto refused = lab.victim("run e.yaml --label a");
  INFO(refused.out << refused.err);
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("writable by its group"));
  CHECK_THAT(refused.err, Catch::Contains("shared_group: true"));
  CHECK_THAT(refused.err, Catch::Contains("--allow-shared"));
  CHECK_FALSE(fs::exists(lab.box.path("results/sweep.db")));
  CHECK_FALSE(fs::exists(lab.box.path("results/a")));

  ::chmod(lab.box.path("results").c_str(), 0775);  // group-writable, not sticky: refused even so
  const auto loose = lab.victim("run e.yaml --label a --allow-shared");
  CHECK(loose.exit_code == 2);
  CHECK_THAT(loose.err, Catch::Contains("chmod +t"));
  ::chmod(lab.box.path("results").c_str(), 01775);

  const auto flag = lab.victim("run e.yaml --label a --allow-shared");
  INFO(flag.err);
  CHECK(flag.exit_code == 0);
  const std::string site = lab.box.write("site.yaml", "format: 1\nshared_group: true\n");
  const auto by_site = lab.victim("run e.yaml --label b --site " + site);
  INFO(by_site.err);
  CHECK(by_site.exit_code == 0);
  // What sweep made there is writable by the victim alone, though the umask would let the group write
  // (the files the job script and the workload write themselves take the umask: docs/reliability.md).
  CHECK(shell("find " + quoted(lab.box.path("results/a")) +
              " -perm /022 \\( -type d -o -name run.sh -o -name stdout -o -name stderr -o -name .sweep-run-root \\) | wc -l")
            .out == "0\n");
}

TEST_CASE("a directory planted under a label, with a stdout symlink in its attempt directory, is refused") {
  if (!second_user()) return;
  Lab lab;
  REQUIRE(lab.victim("run e.yaml --label probe --allow-shared").exit_code == 0);
  // The attempt directories the next campaign would make: the same points, attempt 1.
  std::vector<std::string> attempts;
  for (const auto& e : fs::directory_iterator(lab.box.path("results/probe")))
    if (e.is_directory() && e.path().filename().string().find(".attempt1") != std::string::npos)
      attempts.push_back(e.path().filename().string());
  REQUIRE(attempts.size() == 2);
  std::string plant = "mkdir nightly-1";
  for (const auto& a : attempts)
    plant += " && mkdir nightly-1/" + a + " && ln -s " + lab.private_file + " nightly-1/" + a + "/stdout && ln -s " +
             lab.private_file + " nightly-1/" + a + "/run.sh";
  const auto planted = as_other(lab.box.path("results"), plant);
  INFO(planted.out);
  REQUIRE(planted.exit_code == 0);

  const auto run = lab.victim("run e.yaml --label nightly-1 --allow-shared");
  INFO(run.err);
  CHECK(run.exit_code == 2);
  CHECK_THAT(run.err, Catch::Contains("already exists"));
  CHECK(lab.private_unchanged());
  auto db = lab.box.db();
  CHECK(scalar(db, "SELECT count(*) FROM campaigns WHERE label = 'nightly-1'") == 0);  // nothing half-made
}

TEST_CASE("a world-writable sweep.db planted before the victim's first run is refused, even under umask 077") {
  if (!second_user()) return;
  Lab lab;
  REQUIRE(as_other(lab.box.path("results"), "touch sweep.db && chmod 666 sweep.db").exit_code == 0);
  for (const std::string opt : {"", " --allow-shared"}) {
    const auto run = shell("cd " + quoted(lab.box.dir().string()) + " && umask 077 && " + SWEEP_BIN +
                           " run e.yaml --label a" + opt);
    INFO(opt << ": " << run.err);
    CHECK(run.exit_code == 2);
    CHECK_THAT(run.err, Catch::Contains("refusing the"));
  }
  // Opted in to sharing by group, the database itself is what is refused.
  const auto shared = shell("cd " + quoted(lab.box.dir().string()) + " && umask 077 && " + SWEEP_BIN +
                            " run e.yaml --label a --allow-shared");
  CHECK_THAT(shared.err, Catch::Contains("refusing the results database"));
  CHECK_THAT(shared.err, Catch::Contains("writable by everyone"));
  CHECK(fs::file_size(lab.box.path("results/sweep.db")) == 0);  // not a byte of the victim's campaign
  CHECK_FALSE(fs::exists(lab.box.path("results/a")));
}

TEST_CASE("SQLite's files planted beside the victim's database as symlinks to a private file are refused") {
  if (!second_user()) return;
  Lab lab;
  REQUIRE(lab.victim("run e.yaml --label a --allow-shared").exit_code == 0);
  for (const char* sidecar : {"sweep.db-wal", "sweep.db-journal"}) {
    const auto planted = as_other(lab.box.path("results"), std::string("ln -s ") + lab.private_file + " " + sidecar);
    INFO(planted.out);
    REQUIRE(planted.exit_code == 0);
    for (const char* command : {"run e.yaml --label b --allow-shared", "ls --allow-shared", "report a --no-figures --allow-shared"}) {
      const auto r = lab.victim(command);
      INFO(sidecar << ", " << command << ": " << r.err);
      CHECK(r.exit_code == 2);
      CHECK_THAT(r.err, Catch::Contains("symbolic link"));
    }
    CHECK(lab.private_unchanged());
    REQUIRE(as_other(lab.box.path("results"), std::string("rm ") + sidecar).exit_code == 0);
  }
}

TEST_CASE("the next run's job script, prepared early, cannot be swapped while the previous run executes") {
  if (!second_user()) return;
  Lab lab;
  lab.box.write("slow.yaml", "name: slow\nmatrix:\n  x: [3, 1]\nworkload:\n  command: sleep {{x}}; echo value {{x}}\n");
  const mode_t old = ::umask(002);
  const int pid = lab.box.spawn_sweep({"run", "slow.yaml", "--label", "s", "-j", "1", "--allow-shared"});
  ::umask(old);
  // While the first run sleeps, the second's directory and run.sh are ready: every way to swap them.
  const auto tried = as_other(lab.box.path("results"),
                              "sleep 1.5; n=0; for d in s/*.attempt1; do "
                              "printf '#!/bin/sh\\ntouch " + lab.box.path("CANARY") + "\\n' > evil.sh; chmod 755 evil.sh; "
                              "cat evil.sh > $d/run.sh && n=$((n+1)); cp evil.sh $d/run.sh.new && mv -f $d/run.sh.new $d/run.sh && n=$((n+1)); "
                              "done; mv s s.stolen && n=$((n+1)); echo swapped=$n");
  INFO(tried.out);
  CHECK_THAT(tried.out, Catch::Contains("swapped=0"));
  int status = -1;
  ::waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  auto db = lab.box.db();
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == 2);
  CHECK_FALSE(fs::exists(lab.box.path("CANARY")));
}

TEST_CASE("a run root swapped for another user's directory is never resumed into") {
  if (!second_user()) return;
  Lab lab;
  REQUIRE(lab.victim("run e.yaml --label r --allow-shared").exit_code == 0);
  // The victim moves the campaign's directory away; a member plants one without a marker in its place.
  fs::rename(lab.box.path("results/r"), lab.box.path("results/r.moved"));
  REQUIRE(as_other(lab.box.path("results"), "mkdir r && ln -s " + lab.private_file + " r/stdout").exit_code == 0);
  SQLite::Database(lab.box.path("results/sweep.db"), SQLite::OPEN_READWRITE).exec("UPDATE runs SET state = 'pending'");
  const auto resumed = lab.victim("run --resume r --allow-shared");
  INFO(resumed.err);
  CHECK(resumed.exit_code == 2);
  CHECK_THAT(resumed.err, Catch::Contains("never adopts"));
  CHECK(lab.private_unchanged());
}

TEST_CASE("a reports directory owned by another user is refused, and its planted report.md.tmp changes nothing") {
  if (!second_user()) return;
  Lab lab;
  // The victim's database is private (in the sandbox); only the reports go to the shared directory.
  REQUIRE(lab.victim("run e.yaml --label a --allow-shared --db own.db").exit_code == 0);
  fs::create_directory(lab.box.path("shared"));
  REQUIRE(shell("chgrp " + std::string(kOther) + " " + quoted(lab.box.path("shared"))).exit_code == 0);
  ::chmod(lab.box.path("shared").c_str(), 01775);
  REQUIRE(as_other(lab.box.path("shared"), "mkdir -p reports/a && chmod 755 reports && chmod 777 reports/a && ln -s " +
                                                lab.private_file + " reports/a/report.md.tmp && ln -s " + lab.private_file +
                                                " reports/a/report.md")
              .exit_code == 0);
  const auto plain = lab.victim("report a --no-figures --db own.db --reports shared/reports");
  INFO(plain.err);
  CHECK(plain.exit_code == 2);
  CHECK_THAT(plain.err, Catch::Contains("refusing the reports directory"));
  CHECK_THAT(plain.err, Catch::Contains("owned by another user"));
  const auto shared = lab.victim("report a --no-figures --db own.db --reports shared/reports --allow-shared");
  INFO(shared.err);
  CHECK(shared.exit_code == 2);
  CHECK_THAT(shared.err, Catch::Contains("writable by everyone"));
  CHECK(lab.private_unchanged());
}
