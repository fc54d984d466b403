// The tree hash of format 1 over literal entries: its listing byte for byte, the order, and what
// changes the hash and what does not.
#include <catch2/catch.hpp>

#include "container/tree_hash.h"
#include "util/error.h"
#include "util/sha256.h"

using namespace sweep::container;
using namespace std::string_literals;

namespace {

TreeEntry file(std::string path, std::uint64_t size, std::string sha, unsigned mode = 0644) {
  TreeEntry e;
  e.type = EntryType::file;
  e.path = std::move(path);
  e.size = size;
  e.content_sha256 = std::move(sha);
  e.mode = mode;
  return e;
}

TreeEntry other(EntryType type, std::string path, unsigned mode, std::string target = "") {
  TreeEntry e;
  e.type = type;
  e.path = std::move(path);
  e.mode = mode;
  e.target = std::move(target);
  return e;
}

const std::string kHello = sweep::sha256_hex("hello\n");

}  // namespace

TEST_CASE("tree hash: the listing of format 1, field by field") {
  std::vector<TreeEntry> entries{other(EntryType::symlink, "bin/sh", 0777, "busybox"), other(EntryType::directory, "bin", 0755),
                                 file("bin/busybox", 6, kHello, 04755), other(EntryType::fifo, "run/p", 0600)};
  sort_entries(entries);
  CHECK(tree_listing(entries) == "sweep-tree-hash format=1\0"s
                                 "d\0" "0755\0" "bin\0"s
                                 "f\0" "4755\0" "bin/busybox\0" "6\0"s + kHello + "\0"s +
                                 "l\0" "0777\0" "bin/sh\0" "busybox\0"s
                                 "p\0" "0600\0" "run/p\0"s);
  CHECK(tree_hash(entries) == "sha256:" + sweep::sha256_hex(tree_listing(entries)));
}

TEST_CASE("tree hash: entries sort in byte order of the path, not by components") {
  std::vector<TreeEntry> entries{other(EntryType::directory, "a/b", 0755), other(EntryType::directory, "a-b", 0755),
                                 other(EntryType::directory, "a", 0755), other(EntryType::directory, "\xc3\xa9", 0755),
                                 other(EntryType::directory, "Z", 0755)};
  sort_entries(entries);
  std::vector<std::string> order;
  for (const auto& e : entries) order.push_back(e.path);
  // '-' (0x2d) < '/' (0x2f); 0xc3 sorts after ASCII, as an unsigned byte.
  CHECK(order == std::vector<std::string>{"Z", "a", "a-b", "a/b", "\xc3\xa9"});
}

TEST_CASE("tree hash: content, mode, name and target change it, times, owners and inodes do not") {
  const std::vector<TreeEntry> base{file("f", 6, kHello), other(EntryType::symlink, "l", 0777, "f")};
  const std::string h = tree_hash(base);
  auto changed = [&](auto edit) {
    auto copy = base;
    edit(copy);
    return tree_hash(copy);
  };
  CHECK(changed([](auto& v) { v[0].content_sha256 = sweep::sha256_hex("hellO\n"); }) != h);
  CHECK(changed([](auto& v) { v[0].mode = 0755; }) != h);
  CHECK(changed([](auto& v) { v[0].path = "g"; }) != h);
  CHECK(changed([](auto& v) { v[1].target = "g"; }) != h);
  CHECK(changed([](auto& v) { v[0].size = 7; }) != h);
  CHECK(changed([](auto& v) { v[0].mtime_ns = 5; v[0].ctime_ns = 6; v[0].inode = 99; }) == h);
}

TEST_CASE("tree hash: the metadata hash follows times and inodes, not content") {
  std::vector<TreeEntry> base{file("f", 6, "")};
  const std::string h = metadata_hash(base);
  auto copy = base;
  copy[0].mtime_ns = 1;
  CHECK(metadata_hash(copy) != h);
  copy = base;
  copy[0].inode = 2;
  CHECK(metadata_hash(copy) != h);
  copy = base;
  copy[0].content_sha256 = kHello;
  CHECK(metadata_hash(copy) == h);
}

TEST_CASE("tree hash: a regular file without its content hash is a bug, not a hash") {
  CHECK_THROWS_AS(tree_listing({file("f", 6, "")}), sweep::Error);
}
