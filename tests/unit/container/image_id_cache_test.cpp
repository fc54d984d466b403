// sweep-image-id --cache: a second run reads no content, a change is seen, a damaged entry is
// recomputed, and a cache directory that is not the user's private one is refused with a warning (the id
// is still computed and printed, without the cache).
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "image_id_process.h"
#include "temp_dir.h"

using namespace sweep::container::testing;

namespace {

/// sweep-image-id --verbose --cache `cache` `path`: the id line and the verbose line, or the failure.
std::string cached_run(const std::string& cache, const std::string& path) {
  const Ran ran = sh(kImageId + " --verbose --cache " + quoted(cache) + " " + quoted(path));
  if (ran.code != 0) return "exit " + std::to_string(ran.code) + ": " + ran.out;
  return ran.out;
}

std::string verbose_line(std::uint64_t bytes, const char* cache) {
  return "sweep-image-id: content read: " + std::to_string(bytes) + " bytes (cache: " + cache + ")\n";
}

}  // namespace

TEST_CASE("image id cache: a file is read once, then its id comes from the cache until it changes") {
  TempDir dir;
  const std::string image = dir.file("image.sif"), cache = dir.file("cache");
  REQUIRE(sh("head -c 1000000 /dev/urandom > " + image).code == 0);
  const std::string id = image_id(image);
  CHECK(cached_run(cache, image) == verbose_line(1000000, "miss") + id + "\n");
  CHECK(cached_run(cache, image) == verbose_line(0, "hit") + id + "\n");
  // The cache directory was made private.
  struct stat st {};
  REQUIRE(::stat(cache.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  // Rewritten in place with the same size and its old mtime put back: ctime still tells.
  REQUIRE(sh("m=$(stat -c %y " + image + ") && head -c 1000000 /dev/urandom | dd of=" + image +
             " conv=notrunc status=none && touch -d \"$m\" " + image).code == 0);
  const std::string changed = image_id(image);
  CHECK(changed != id);
  CHECK(cached_run(cache, image) == verbose_line(1000000, "miss") + changed + "\n");
  CHECK(cached_run(cache, image) == verbose_line(0, "hit") + changed + "\n");
}

TEST_CASE("image id cache: a tree is read once, then a changed file or a new entry misses") {
  TempDir dir;
  const std::string root = dir.file("img"), cache = dir.file("cache");
  REQUIRE(sh("mkdir -p " + root + "/bin && printf 'hello\\n' > " + root + "/bin/busybox && ln -s busybox " + root + "/bin/sh").code == 0);
  const std::string id = reference_hash(root);
  CHECK(cached_run(cache, root) == verbose_line(6, "miss") + id + "\n");
  CHECK(cached_run(cache, root) == verbose_line(0, "hit") + id + "\n");
  REQUIRE(sh("printf 'hellO\\n' > " + root + "/bin/busybox").code == 0);
  const std::string changed = reference_hash(root);
  CHECK(changed != id);
  CHECK(cached_run(cache, root) == verbose_line(6, "miss") + changed + "\n");
  REQUIRE(sh("mkdir " + root + "/tmp").code == 0);
  const std::string added = reference_hash(root);
  CHECK(cached_run(cache, root) == verbose_line(6, "miss") + added + "\n");
  CHECK(cached_run(cache, root) == verbose_line(0, "hit") + added + "\n");
}

TEST_CASE("image id cache: a damaged entry is ignored, recomputed and replaced") {
  TempDir dir;
  const std::string image = dir.file("image.sif"), cache = dir.file("cache");
  REQUIRE(sh("printf abc > " + image).code == 0);
  const std::string id = "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  CHECK(cached_run(cache, image) == verbose_line(3, "miss") + id + "\n");
  // Each damage: cut short, another id that is no id, emptied.
  for (const char* damage : {"head -c 40 \"$f\" > t && mv t \"$f\"", "sed -i 's/^id=.*/id=sha256:zz/' \"$f\"", ": > \"$f\""}) {
    INFO(damage);
    REQUIRE(sh("cd " + cache + " && f=$(ls) && " + std::string(damage)).code == 0);
    CHECK(cached_run(cache, image) == verbose_line(3, "miss") + id + "\n");
    CHECK(cached_run(cache, image) == verbose_line(0, "hit") + id + "\n");
  }
}

TEST_CASE("image id cache: a symlink, a group-writable or another user's directory is refused, the id still printed") {
  TempDir dir;
  const std::string image = dir.file("image.sif");
  REQUIRE(sh("printf abc > " + image + " && mkdir -m 0700 " + dir.file("real") + " " + dir.file("shared") + " " +
             dir.file("theirs") + " && ln -s real " + dir.file("link") + " && chmod 0770 " + dir.file("shared") +
             " && chown 65534 " + dir.file("theirs"))
              .code == 0);
  const std::vector<std::pair<std::string, std::string>> refused{
      {"link", "it is a symbolic link"}, {"shared", "it is writable by its group"},
      {"theirs", "it is owned by another user (uid 65534)"}, {"image.sif", "it is not a directory"}};
  for (const auto& [name, why] : refused) {
    INFO(name);
    const Ran ran = sh(kImageId + " --verbose --cache " + dir.file(name) + " " + image);
    CHECK(ran.code == 0);
    CHECK(ran.out == "sweep-image-id: warning: not using the cache: refusing the cache directory " + dir.file(name) +
                         ": " + why + " (it must be your own directory, writable by you alone, not a symbolic link)\n" +
                         verbose_line(3, "off") +
                         "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n");
  }
  CHECK(std::filesystem::is_empty(dir.file("real")));
}
