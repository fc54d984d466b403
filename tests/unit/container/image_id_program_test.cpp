// sweep-image-id on files and trees built here, against sha256sum and the Python reference of format 1
// (tree_hash_reference.py): exact hashes, symlinks (loops included) never followed, special files, what
// the hash leaves out, and the errors with their exit codes.
#include <catch2/catch.hpp>

#include "image_id_process.h"
#include "temp_dir.h"

using namespace sweep::container::testing;

namespace {

/// Builds, under `root`, a tree of every kind of entry the hash lists.
void build_tree(const std::string& root) {
  const std::string q = quoted(root);
  const Ran ran = sh("set -e; mkdir -p " + q + "/bin " + q + "/etc/empty " + q + "/outside " + q + "/deep/a/b/c && cd " + q +
                     " && printf 'hello\\n' > bin/busybox && chmod 4755 bin/busybox && ln -s busybox bin/sh"
                     " && : > etc/passwd && chmod 0600 etc/passwd && printf 'x' > 'etc/with space' && printf 'y' > \"etc/new$(printf '\\nline')\""
                     " && printf 'z' > \"etc/$(printf '\\377')byte\" && head -c 200000 /dev/urandom > deep/a/b/c/blob"
                     " && ln -s loop2 loop1 && ln -s loop1 loop2 && ln -s self self && ln -s /etc host-etc && ln -s deep dir-link"
                     " && mkfifo run-fifo && chmod 1777 deep && printf 'skip' > outside/not-in-image"
                     " && python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.bind(\"sock\")'");
  INFO(ran.out);
  REQUIRE(ran.code == 0);
}

}  // namespace

TEST_CASE("image id program: a regular file's id is its SHA-256, as sha256sum says") {
  TempDir dir;
  const std::string image = dir.file("image.sif");
  REQUIRE(sh("head -c 3000000 /dev/urandom > " + image).code == 0);
  const Ran sum = sh("sha256sum " + image);
  CHECK(image_id(image) == "sha256:" + sum.out.substr(0, 64));
  REQUIRE(sh(": > " + dir.file("empty")).code == 0);
  CHECK(image_id(dir.file("empty")) == "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_CASE("image id program: a tree's hash is the Python reference's, every kind of entry") {
  TempDir dir;
  const std::string root = dir.file("img");
  build_tree(root);
  const std::string id = image_id(root);
  CHECK(id.starts_with("sha256:"));
  CHECK(id == reference_hash(root));
  // A symlink at the path itself is followed (an image named by a "current" link); none below it.
  REQUIRE(sh("ln -s img " + dir.file("current")).code == 0);
  CHECK(image_id(dir.file("current")) == id);
}

TEST_CASE("image id program: times, owners and the image's place leave the tree hash as it is") {
  TempDir dir;
  const std::string root = dir.file("img");
  build_tree(root);
  const std::string id = image_id(root);
  REQUIRE(sh("cp -a " + root + " " + dir.file("copy") + " && touch -d 2001-01-01 " + dir.file("copy/bin/busybox") +
             " " + dir.file("copy/etc") + " && chown -h 65534:65534 " + dir.file("copy/etc/passwd") + " " + dir.file("copy/bin/sh"))
              .code == 0);
  CHECK(image_id(dir.file("copy")) == id);
}

TEST_CASE("image id program: content, a mode, a name, a link target or a new entry change the tree hash") {
  TempDir dir;
  const std::string root = dir.file("img");
  build_tree(root);
  const std::string q = quoted(root);
  std::string last = image_id(root);
  for (const char* edit : {"printf 'hellO\\n' > bin/busybox", "chmod 0755 bin/busybox", "mv etc/passwd etc/passwe",
                                 "ln -sfn busybox2 bin/sh", "mkdir etc/empty/new", "rm run-fifo"}) {
    INFO(edit);
    REQUIRE(sh("cd " + q + " && " + std::string(edit)).code == 0);
    const std::string id = image_id(root);
    CHECK(id != last);
    CHECK(id == reference_hash(root));
    last = id;
  }
}

TEST_CASE("image id program: errors name the path, with the exit codes of util/exit_codes.h") {
  TempDir dir;
  Ran ran = sh(kImageId + " " + dir.file("missing"));
  CHECK(ran.code == 4);
  CHECK(ran.out == "sweep-image-id: no image at " + dir.file("missing") + "\n");
  ran = sh(kImageId + " /dev/null");
  CHECK(ran.code == 2);
  CHECK(ran.out == "sweep-image-id: /dev/null is neither a regular file (a SIF or SquashFS image) nor a directory (an image tree)\n");
  ran = sh(kImageId);
  CHECK(ran.code == 2);
  CHECK_THAT(ran.out, Catch::StartsWith("sweep-image-id: no image named"));
  REQUIRE(sh("mkdir " + dir.file("img")).code == 0);
  // A cache that cannot be made is a warning: the id is computed without it.
  ran = sh(kImageId + " --cache " + dir.file("no/such/parent") + " " + dir.file("img"));
  CHECK(ran.code == 0);
  CHECK_THAT(ran.out, Catch::StartsWith("sweep-image-id: warning: not using the cache: cannot make the cache directory " +
                                        dir.file("no/such/parent")) &&
                          Catch::EndsWith("\n" + image_id(dir.file("img")) + "\n"));
  ran = sh(kImageId + " --help");
  CHECK(ran.code == 0);
  CHECK_THAT(ran.out, Catch::StartsWith("usage: sweep-image-id [--cache DIR] [--verbose] PATH"));
}

TEST_CASE("image id program: an unreadable file in a tree is an error naming it, not a hash") {
  TempDir dir;
  const std::string root = dir.file("img");
  REQUIRE(sh("mkdir " + root + " && printf x > " + root + "/secret && chmod 000 " + root + "/secret").code == 0);
  if (::geteuid() == 0) {
    // root reads it anyway: the hash is still the reference's.
    CHECK(image_id(root) == reference_hash(root));
    return;
  }
  const Ran ran = sh(kImageId + " " + root);
  CHECK(ran.code == 6);
  CHECK_THAT(ran.out, Catch::Contains("cannot open " + root + "/secret: Permission denied"));
}

TEST_CASE("image id program: a filesystem mounted inside the tree is listed, not entered") {
  TempDir dir;
  const std::string root = dir.file("img");
  REQUIRE(sh("mkdir -p " + root + "/m && chmod 0755 " + root + "/m && printf x > " + root + "/f").code == 0);
  const std::string unmounted = image_id(root);
  // In a mount namespace of its own (nothing is left mounted): a tmpfs at m with a file in it.
  const Ran mounted = sh("unshare -m sh -c 'mount -t tmpfs -o mode=0755 none " + root + "/m && printf y > " + root +
                         "/m/inside && " + kImageId + " " + root + "'");
  if (mounted.code != 0 && ::geteuid() != 0) {
    WARN("not root: no mount namespace to test in (" << mounted.out << ")");
    return;
  }
  REQUIRE(mounted.code == 0);
  CHECK(mounted.out == unmounted + "\n");
  CHECK(unmounted == reference_hash(root));
}
