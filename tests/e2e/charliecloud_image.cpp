#include "e2e/charliecloud_image.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>

#include <fmt/core.h>

#include "e2e/harness.h"

namespace e2e {
namespace fs = std::filesystem;

namespace {

/// The shell's single-quoted form of `s`.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::string charliecloud_image(const std::vector<std::string>& mounts) {
  const std::string bundled = fs::path(COLLBENCH_BIN).parent_path().string();
  std::string key = bundled;
  for (const std::string& m : mounts) key += "\n" + m;
  const fs::path dir = CHARLIECLOUD_IMAGES;
  fs::create_directories(dir);
  const std::string image = (dir / fmt::format("charliecloud-{:016x}", std::hash<std::string>{}(key))).string();
  const std::string script = std::string(SWEEP_SOURCE_DIR) + "/tests/support/make-charliecloud-image";
  std::string build = quoted(script) + " --mpi --libs-of " + quoted(COLLBENCH_BIN) + " --mount " + quoted(bundled);
  for (const std::string& m : mounts) build += " --mount " + quoted(m);
  build += " " + quoted(image);
  const std::string marker = quoted(image + kCharliecloudMarker);
  // flock(1): the tests that ctest runs side by side build the image once, the others wait for it.
  const Result r = shell("exec flock " + quoted(image + ".lock") + " sh -c " +
                         quoted("if [ ! -f " + marker + " ] || [ " + quoted(script) + " -nt " + marker + " ] || [ " +
                                quoted(COLLBENCH_BIN) + " -nt " + marker + " ]; then " + build + "; fi"));
  INFO("make-charliecloud-image: " << r.out << r.err);
  REQUIRE(r.exit_code == 0);
  return image;
}

std::string image_id_of(const std::string& image) {
  const std::string program = (fs::path(COLLBENCH_BIN).parent_path() / "sweep-image-id").string();
  if (!fs::exists(program)) return "";
  const Result r = shell(quoted(program) + " " + quoted(image));
  INFO("sweep-image-id: " << r.err);
  REQUIRE(r.exit_code == 0);
  return r.out.substr(0, r.out.find('\n'));
}

}  // namespace e2e
