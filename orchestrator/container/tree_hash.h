#pragma once
// The tree hash of a directory image, format 1 (docs/containers.md, "The image's identity"). Pure: the
// entries are read by image_walk.h.
//
// The hash is the SHA-256 of a listing: "sweep-tree-hash format=1" NUL, then one record per entry below
// the root in byte order of its relative path, each field ended by NUL:
//   type (f regular file, d directory, l symlink, p fifo, s socket, c char device, b block device),
//   permission bits (st_mode & 07777, 4 octal digits), relative path,
//   and for f: size in bytes (decimal) and the content's SHA-256 (hex); for l: the link's target.
// Owners, times, link counts, extended attributes and device numbers are left out: they differ between
// copies of the same image (an unpacked tarball, a copy by another user) without changing what runs.
#include <cstdint>
#include <string>
#include <vector>

namespace sweep::container {

enum class EntryType : char { file = 'f', directory = 'd', symlink = 'l', fifo = 'p', socket = 's', char_device = 'c', block_device = 'b' };

/// One entry below the root, as image_walk.h reads it.
struct TreeEntry {
  EntryType type = EntryType::file;
  unsigned mode = 0;           // st_mode & 07777
  std::string path;            // relative to the root, no leading "./"
  std::uint64_t size = 0;      // regular files
  std::string content_sha256;  // regular files: hex; filled in by the caller before tree_hash()
  std::string target;          // symlinks
  // For the cache's metadata key only (not in the tree hash):
  std::uint64_t inode = 0;
  std::int64_t mtime_ns = 0, ctime_ns = 0;
};

/// Sorts `entries` by path in byte order (the order the listing takes).
void sort_entries(std::vector<TreeEntry>& entries);

/// The listing of format 1 over `entries` (sorted by sort_entries). Regular files need content_sha256.
std::string tree_listing(const std::vector<TreeEntry>& entries);

/// "sha256:<hex>" of tree_listing(entries).
std::string tree_hash(const std::vector<TreeEntry>& entries);

/// The SHA-256 (hex) of the entries' metadata (path, type, mode, size, mtime ns, ctime ns, inode),
/// without content: equal between two reads of an unchanged tree; what the cache keys a directory by.
std::string metadata_hash(const std::vector<TreeEntry>& entries);

}  // namespace sweep::container
