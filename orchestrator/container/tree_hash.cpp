#include "container/tree_hash.h"

#include <algorithm>

#include <fmt/format.h>

#include "util/error.h"
#include "util/sha256.h"

namespace sweep::container {
namespace {

constexpr char kNul = '\0';

void field(std::string& out, std::string_view text) {
  out.append(text);
  out.push_back(kNul);
}

}  // namespace

void sort_entries(std::vector<TreeEntry>& entries) {
  // std::string compares char_traits<char>, which compares as unsigned char: byte order.
  std::sort(entries.begin(), entries.end(), [](const TreeEntry& a, const TreeEntry& b) { return a.path < b.path; });
}

std::string tree_listing(const std::vector<TreeEntry>& entries) {
  std::string out;
  field(out, "sweep-tree-hash format=1");
  for (const auto& e : entries) {
    field(out, std::string(1, static_cast<char>(e.type)));
    field(out, fmt::format("{:04o}", e.mode & 07777u));
    field(out, e.path);
    if (e.type == EntryType::file) {
      if (e.content_sha256.size() != 64)
        throw Error(ErrorKind::internal, fmt::format("tree hash: no content hash for {}", e.path));
      field(out, std::to_string(e.size));
      field(out, e.content_sha256);
    } else if (e.type == EntryType::symlink) {
      field(out, e.target);
    }
  }
  return out;
}

std::string tree_hash(const std::vector<TreeEntry>& entries) { return "sha256:" + sha256_hex(tree_listing(entries)); }

std::string metadata_hash(const std::vector<TreeEntry>& entries) {
  Sha256 hash;
  hash.update("sweep-tree-metadata format=1\n");
  for (const auto& e : entries) {
    std::string record;
    field(record, e.path);
    record += fmt::format("{} {:o} {} {} {} {} {}", static_cast<char>(e.type), e.mode, e.size, e.mtime_ns, e.ctime_ns,
                          e.inode, e.target);
    record.push_back(kNul);
    hash.update(record);
  }
  return hash.hex_digest();
}

}  // namespace sweep::container
