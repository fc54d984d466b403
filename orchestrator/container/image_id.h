#pragma once
// The identity of a container image (docs/containers.md, "The image's identity"): `sha256:<hex>`, a
// regular file's (SIF, SquashFS) SHA-256 or a directory's (Charliecloud, Apptainer sandbox) tree hash
// of format 1 (tree_hash.h).
#include <cstdint>
#include <string>

namespace sweep::container {

class IdCache;

/// What identify_image found and how.
struct ImageId {
  std::string id;                // "sha256:<hex>"
  std::uint64_t content_bytes = 0;  // content read to compute it (0 on a cache hit)
  enum class Cache { off, hit, miss } cache = Cache::off;
  std::string cache_warning;     // why a computed id could not be stored, or ""
};

/// The id of the image at `path` (a symlink at `path` itself is followed; none below it). With
/// `cache`, a stored id is reused when the key still matches (id_cache.h) and a computed one stored.
/// Error(not_found) when nothing is at `path`; Error(usage) when it is neither a regular file nor a
/// directory; Error(io) when it cannot be read.
ImageId identify_image(const std::string& path, const IdCache* cache);

}  // namespace sweep::container
