#include "runner/run_root.h"

#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

#include "temp_dir.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::runner;
namespace fs = std::filesystem;

namespace {

/// create_run_root and claim_run_root, their controller lock let go on return (a second lock of the same
/// file, even in this process, is refused while one is held).
void create(const std::string& run_root, const RunRootMarker& marker) {
  std::optional<ControllerLock> lock;
  create_run_root(run_root, marker, lock);
  CHECK(lock);
}
void claim(const std::string& run_root, const RunRootMarker& marker) {
  std::optional<ControllerLock> lock;
  claim_run_root(run_root, marker, lock);
  CHECK(lock);
}

}  // namespace

TEST_CASE("a run root marker reads back as written, and only format 1 is a marker") {
  const RunRootMarker m{"/r/sweep.db", "0123abcd", "nightly-1"};
  CHECK(marker_text(m) == "format=1\ndatabase=/r/sweep.db\ndatabase_id=0123abcd\ncampaign=nightly-1\n");
  const auto back = parse_marker(marker_text(m));
  REQUIRE(back);
  CHECK(back->database_id == "0123abcd");
  CHECK(back->campaign == "nightly-1");
  CHECK_FALSE(parse_marker("format=2\ndatabase_id=x\ncampaign=y\n"));
  CHECK_FALSE(parse_marker("anything"));
}

TEST_CASE("labels that would shadow the database or SQLite's files beside it are refused") {
  for (const char* label : {"sweep.db", "sweep.db-journal", "sweep.db-wal", "sweep.db-shm", "sweep.db-mj01"})
    CHECK_THROWS_WITH(require_label_clear_of_database(label, "/r", "/r/sweep.db"), Catch::Contains("choose another --label"));
  CHECK_NOTHROW(require_label_clear_of_database("sweep.db-journal", "/r", "/elsewhere/sweep.db"));
  CHECK_NOTHROW(require_label_clear_of_database("sweep", "/r", "/r/sweep.db"));
  CHECK_THROWS(require_label_clear_of_database("lab.sqlite-wal", "/r", "/r/lab.sqlite"));
}

TEST_CASE("a run root is made new, and claimed only by the database and campaign its marker names") {
  TempDir s;
  const RunRootMarker mine{"/r/a.db", "aaaa", "c"};
  create(s.file("c"), mine);
  // What a controller killed between making it and recording the campaign left (nothing but its own
  // marker, or nothing at all) is taken again; anything more, or another database's marker, is not.
  CHECK_NOTHROW(create(s.file("c"), mine));
  fs::create_directory(s.file("empty"));
  fs::permissions(s.file("empty"), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                       fs::perms::others_read | fs::perms::others_exec);
  CHECK_NOTHROW(create(s.file("empty"), mine));
  CHECK(fs::exists(s.file("empty/.sweep-run-root")));
  // A kill while the marker was written leaves a prefix of it: taken again, and the marker completed.
  for (const std::size_t cut : {std::size_t{0}, std::size_t{9}, marker_text(mine).size() - 1}) {
    const auto dir = s.file("cut" + std::to_string(cut));
    fs::create_directory(dir);
    fs::permissions(dir, fs::perms::owner_all);
    std::ofstream(dir + "/.sweep-run-root") << marker_text(mine).substr(0, cut);
    CHECK_NOTHROW(create(dir, mine));
    std::ifstream in(dir + "/.sweep-run-root");
    CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == marker_text(mine));
  }
  const auto other = s.file("othercut");
  fs::create_directory(other);
  fs::permissions(other, fs::perms::owner_all);
  std::ofstream(other + "/.sweep-run-root") << marker_text(RunRootMarker{"/r/b.db", "bbbb", "c"}).substr(0, 30);
  CHECK_THROWS_WITH(create(other, mine), Catch::Contains("already exists"));
  CHECK_THROWS_WITH(create(s.file("c"), RunRootMarker{"/r/b.db", "bbbb", "c"}), Catch::Contains("already exists"));
  std::ofstream(s.file("c/p0")) << "a run of someone's\n";
  CHECK_THROWS_WITH(create(s.file("c"), mine), Catch::Contains("already exists"));
  fs::remove(s.file("c/p0"));
  CHECK_NOTHROW(claim(s.file("c"), mine));
  CHECK_THROWS_WITH(claim(s.file("c"), RunRootMarker{"/r/b.db", "bbbb", "c"}),
                    Catch::Contains("belongs to campaign \"c\" of the database /r/a.db (id aaaa)"));
  CHECK_THROWS(claim(s.file("c"), RunRootMarker{"/r/a.db", "aaaa", "other"}));
  // A run root from before the markers is adopted once, then it is marked.
  fs::create_directory(s.file("old"));
  claim(s.file("old"), mine);
  CHECK(fs::exists(s.file("old/.sweep-run-root")));
  // A missing one is made anew; a symlink is never followed.
  claim(s.file("gone"), mine);
  CHECK(fs::is_directory(s.file("gone")));
  fs::create_directory_symlink(s.file("c"), s.file("link"));
  CHECK_THROWS_WITH(claim(s.file("link"), mine), Catch::Contains("not a directory"));
}

TEST_CASE("an attempt directory left by a killed controller is made again, and a symlink there is refused") {
  TempDir s;
  make_attempt_directory(s.file("p.rep0.attempt1"));
  std::ofstream(s.file("p.rep0.attempt1/stdout")) << "old";
  make_attempt_directory(s.file("p.rep0.attempt1"));
  CHECK(fs::is_empty(s.file("p.rep0.attempt1")));
  fs::create_directory(s.file("elsewhere"));
  fs::create_directory_symlink(s.file("elsewhere"), s.file("p.rep0.attempt2"));
  CHECK_THROWS_WITH(make_attempt_directory(s.file("p.rep0.attempt2")), Catch::Contains("not one sweep made"));
}

TEST_CASE("of two starts of one new label, the one that does not hold the controller lock is refused and writes nothing") {
  TempDir s;
  const RunRootMarker mine{"/r/a.db", "aaaa", "c"};
  const std::string dir = s.file("c");
  // The other start made the directory a moment ago and holds the lock, its marker not yet written:
  // to this start the directory looks like a killed start's, and the lock says otherwise.
  fs::create_directory(dir);
  fs::permissions(dir, fs::perms::owner_all);
  std::optional<ControllerLock> theirs;
  theirs.emplace(dir, "c");
  std::optional<ControllerLock> lock;
  CHECK_THROWS_WITH(create_run_root(dir, mine, lock),
                    Catch::Contains("campaign \"c\" is being driven by another sweep (pid " + std::to_string(::getpid()) + ")"));
  CHECK_FALSE(lock);
  CHECK_FALSE(fs::exists(dir + "/.sweep-run-root"));
  // It went on, recorded runs, and ended: the directory is no killed start's any more.
  std::ofstream(dir + "/.sweep-run-root") << marker_text(mine);
  std::ofstream(dir + "/p0.rep0.attempt1") << "a run\n";
  theirs.reset();
  CHECK_THROWS_WITH(create_run_root(dir, mine, lock), Catch::Contains("already exists"));
  CHECK_FALSE(lock);
  CHECK(fs::exists(dir + "/p0.rep0.attempt1"));
  // A killed start's directory (its lock file and marker alone) is taken, the lock held.
  fs::remove(dir + "/p0.rep0.attempt1");
  create_run_root(dir, mine, lock);
  CHECK(lock);
}
