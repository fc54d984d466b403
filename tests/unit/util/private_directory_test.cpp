#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "util/error.h"
#include "util/private_directory.h"

using namespace sweep;
namespace fs = std::filesystem;

TEST_CASE("a private directory is new, only its owner's, and gone with what it held") {
  const fs::path parent = fs::temp_directory_path();
  fs::path kept;
  {
    const PrivateDirectory dir(parent, "sweep-private-test-");
    kept = dir.path();
    struct stat st {};
    REQUIRE(::stat(kept.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0700);
    std::ofstream(kept / "f") << "x";
    fs::create_symlink(parent, kept / "link");  // removed, never followed
  }
  CHECK_FALSE(fs::exists(kept));
  CHECK(fs::exists(parent));
  CHECK_THROWS_AS(PrivateDirectory(parent / "no-such-directory-here", "x-"), Error);
}
