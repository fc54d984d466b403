#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "temp_dir.h"
#include "util/atomic_file.h"
#include "util/error.h"

using namespace sweep;
namespace fs = std::filesystem;

namespace {
std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
std::size_t entries(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}
}  // namespace

TEST_CASE("a file is replaced whole, with the umask's mode") {
  TempDir dir;
  const std::string path = dir.file("report.md");
  write_file_atomically(path, "old\n");
  write_file_atomically(path, "new\n");
  CHECK(read(path) == "new\n");
  CHECK(entries(dir.path) == 1);  // no temporary left behind
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  const mode_t mask = ::umask(0);
  ::umask(mask);
  CHECK((st.st_mode & 0777) == (0666 & ~mask));
}

TEST_CASE("a planted temporary symlink is neither followed nor reused") {
  TempDir dir;
  const std::string victim = dir.file("victim"), path = dir.file("report.md");
  std::ofstream(victim) << "private\n";
  fs::create_symlink(victim, path + ".tmp");
  write_file_atomically(path, "report\n");
  CHECK(read(victim) == "private\n");
  CHECK(read(path) == "report\n");
  CHECK(fs::is_symlink(path + ".tmp"));
}

TEST_CASE("two writers of one file never share a temporary") {
  TempDir dir;
  const std::string path = dir.file("out.csv");
  AtomicFile a(path), b(path);
  CHECK(a.temp_path() != b.temp_path());
  CHECK(a.temp_path().rfind(path + ".", 0) == 0);
  std::fputs("a\n", a.stream());
  std::fputs("b\n", b.stream());
  a.commit();
  b.commit();
  CHECK(read(path) == "b\n");
  CHECK(entries(dir.path) == 1);
}

TEST_CASE("a file not committed leaves nothing behind") {
  TempDir dir;
  const std::string path = dir.file("export.jsonl");
  {
    AtomicFile f(path);
    std::fputs("half", f.stream());
  }
  CHECK_FALSE(fs::exists(path));
  CHECK(entries(dir.path) == 0);
  CHECK_THROWS_AS(AtomicFile(dir.file("missing/dir/file")), Error);
}
