#pragma once
// The entries of a directory image, read without following a symlink or crossing a filesystem
// (docs/containers.md, "The image's identity"): what tree_hash.h hashes.
#include <string>
#include <vector>

#include "container/tree_hash.h"

namespace sweep::container {

/// Every entry below `root` (a directory), sorted by sort_entries, their content hashes not filled in.
/// Symlinks are listed with their target, never followed. A directory on another filesystem than
/// `root` (a mount point) is listed but not entered. Error(io) naming the path when a directory cannot
/// be read or an entry cannot be inspected.
std::vector<TreeEntry> walk_tree(const std::string& root);

}  // namespace sweep::container
