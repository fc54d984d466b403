#include "util/safe_files.h"

#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "temp_dir.h"
#include "util/error.h"

using namespace sweep;
namespace fs = std::filesystem;

namespace {

struct stat with(mode_t mode, uid_t uid) {
  struct stat st {};
  st.st_mode = mode;
  st.st_uid = uid;
  return st;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("untrusted_reason: own or root's, writable by nobody else, is trusted") {
  CHECK(untrusted_reason(with(S_IFDIR | 0755, 1000), 1000, false).empty());
  CHECK(untrusted_reason(with(S_IFDIR | 0755, 0), 1000, false).empty());
  CHECK(untrusted_reason(with(S_IFREG | 0644, 1001), 1000, false) == "it is owned by another user (uid 1001)");
  CHECK(untrusted_reason(with(S_IFDIR | 0775, 1000), 1000, false) == "it is writable by its group");
  CHECK(untrusted_reason(with(S_IFREG | 0666, 1000), 1000, false) == "it is writable by everyone");
  CHECK(untrusted_reason(with(S_IFLNK | 0777, 1000), 1000, false) == "it is a symbolic link");
}

TEST_CASE("untrusted_reason: sharing by group trusts a group-writable path of another member, never a world-writable one") {
  CHECK(untrusted_reason(with(S_IFDIR | 03775, 1001), 1000, true).empty());
  CHECK(untrusted_reason(with(S_IFREG | 0664, 1001), 1000, true).empty());
  CHECK_THAT(untrusted_reason(with(S_IFDIR | 02775, 1001), 1000, true), Catch::Contains("sticky bit"));
  CHECK(untrusted_reason(with(S_IFREG | 0666, 1000), 1000, true) == "it is writable by everyone");
}

TEST_CASE("require_trusted refuses a group-writable directory and says how to opt in, unless sharing is allowed") {
  TempDir s;
  fs::create_directory(s.file("shared"));
  ::chmod(s.file("shared").c_str(), 01775);
  set_group_sharing(nullptr);
  try {
    require_trusted(s.file("shared"), "results directory");
    FAIL("not refused");
  } catch (const Error& e) {
    CHECK_THAT(e.message(), Catch::Contains("writable by its group"));
    CHECK_THAT(e.message(), Catch::Contains("shared_group: true"));
    CHECK_THAT(e.message(), Catch::Contains("--allow-shared"));
  }
  set_group_sharing([] { return true; });
  CHECK_NOTHROW(require_trusted(s.file("shared"), "results directory"));
  ::chmod(s.file("shared").c_str(), 0775);
  CHECK_THROWS_WITH(require_trusted(s.file("shared"), "results directory"), Catch::Contains("chmod +t"));
  ::chmod(s.file("shared").c_str(), 0777);
  CHECK_THROWS_WITH(require_trusted(s.file("shared"), "results directory"), Catch::Contains("never trusted"));
  set_group_sharing(nullptr);
  CHECK_NOTHROW(require_trusted(s.file("missing"), "results directory"));
}

TEST_CASE("require_trusted_entry refuses a symlink even to the user's own file") {
  TempDir s;
  write_new_file(s.file("private"), "mine\n", 0600);
  CHECK_NOTHROW(require_trusted_entry(s.file("private"), "file"));
  fs::create_symlink(s.file("private"), s.file("sweep.db-wal"));
  CHECK_NOTHROW(require_trusted(s.file("sweep.db-wal"), "file"));  // followed: the user's own file
  CHECK_THROWS_WITH(require_trusted_entry(s.file("sweep.db-wal"), "file"), Catch::Contains("symbolic link"));
  CHECK_NOTHROW(require_trusted_entry(s.file("missing"), "file"));
}

TEST_CASE("make_new_directory fails when the path exists, a symlink included, and never makes it group-writable") {
  TempDir s;
  const mode_t old = ::umask(0);
  make_new_directory(s.file("run"), "run root");
  ::umask(old);
  CHECK((fs::status(s.file("run")).permissions() & (fs::perms::group_write | fs::perms::others_write)) == fs::perms::none);
  CHECK_THROWS_WITH(make_new_directory(s.file("run"), "run root"), Catch::Contains("already exists"));
  fs::create_directory_symlink(s.file("run"), s.file("link"));
  CHECK_THROWS_WITH(make_new_directory(s.file("link"), "run root"), Catch::Contains("already exists"));
}

TEST_CASE("write_new_file never follows a planted symlink nor reuses a file") {
  TempDir s;
  write_new_file(s.file("private"), "mine\n");
  fs::create_symlink(s.file("private"), s.file("stdout"));
  CHECK_THROWS_AS(write_new_file(s.file("stdout"), "x"), Error);
  CHECK_THROWS_AS(write_new_file(s.file("private"), "x"), Error);
  CHECK(slurp(s.file("private")) == "mine\n");
  write_new_file(s.file("fresh"), "new\n");
  CHECK(slurp(s.file("fresh")) == "new\n");
}

TEST_CASE("replace_own_file rewrites the user's own regular file and refuses a symlink or a hard link") {
  TempDir s;
  write_new_file(s.file("private"), "mine\n");
  replace_own_file(s.file("out"), "first\n");
  replace_own_file(s.file("out"), "2\n");
  CHECK(slurp(s.file("out")) == "2\n");
  fs::create_symlink(s.file("private"), s.file("link"));
  CHECK_THROWS_AS(replace_own_file(s.file("link"), "x"), Error);
  fs::create_hard_link(s.file("private"), s.file("hard"));
  CHECK_THROWS_WITH(replace_own_file(s.file("hard"), "x"), Catch::Contains("not your own regular file"));
  CHECK(slurp(s.file("private")) == "mine\n");
}

TEST_CASE("make_directories makes each missing directory without group or other write, whatever the umask") {
  TempDir dir;
  const mode_t old = ::umask(002);
  const std::string deep = (dir.path / "a" / "b" / "c").string();
  make_directories(deep);
  make_directories(deep);  // existing: left as they are
  ::umask(old);
  for (const char* rel : {"a", "a/b", "a/b/c"}) {
    struct stat st {};
    REQUIRE(::stat((dir.path / rel).c_str(), &st) == 0);
    INFO(rel);
    CHECK(S_ISDIR(st.st_mode));
    CHECK((st.st_mode & 07777) == 0755);
  }
  std::filesystem::create_directories(dir.path / "loose");
  std::filesystem::permissions(dir.path / "loose", std::filesystem::perms::all);
  make_directories((dir.path / "loose" / "x").string());  // an existing parent keeps its mode
  CHECK((std::filesystem::status(dir.path / "loose").permissions() & std::filesystem::perms::others_write) !=
        std::filesystem::perms::none);
}

TEST_CASE("read_own_file: the user's own regular file, whole") {
  TempDir dir;
  const std::string path = dir.file("data");
  std::ofstream(path) << "one\ntwo\n";
  CHECK(read_own_file(path, 8) == "one\ntwo\n");
  CHECK_THROWS_WITH(read_own_file(path, 7), "8 bytes, over the limit of 7");
  CHECK_THROWS_WITH(read_own_file(path, [](std::uintmax_t size) { return "said no to " + std::to_string(size); }),
                    "said no to 8");
}

TEST_CASE("read_own_file: a symlink, a FIFO, a directory and a missing file are refused with the reason") {
  TempDir dir;
  std::ofstream(dir.file("target")) << "secret";
  fs::create_symlink(dir.file("target"), dir.file("link"));
  REQUIRE(::mkfifo(dir.file("fifo").c_str(), 0600) == 0);  // no writer: an open that blocked would hang here
  CHECK_THROWS_WITH(read_own_file(dir.file("link"), 100), "is a symlink: not followed");
  CHECK_THROWS_WITH(read_own_file(dir.file("fifo"), 100), "not a regular file");
  CHECK_THROWS_WITH(read_own_file(dir.path.string(), 100), "not a regular file");
  CHECK_THROWS_WITH(read_own_file(dir.file("nothing"), 100), "missing");
}

TEST_CASE("read_own_file: a file another user may write is not trusted") {
  TempDir dir;
  const std::string path = dir.file("shared");
  std::ofstream(path) << "planted";
  fs::permissions(path, fs::perms::others_write, fs::perm_options::add);
  CHECK_THROWS_WITH(read_own_file(path, 100), "not trusted: it is writable by everyone");
}
