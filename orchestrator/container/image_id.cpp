#include "container/image_id.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "container/file_hash.h"
#include "container/id_cache.h"
#include "container/image_walk.h"
#include "container/tree_hash.h"
#include "util/error.h"

namespace sweep::container {
namespace {

std::int64_t nanoseconds(const timespec& t) { return std::int64_t{t.tv_sec} * 1000000000 + t.tv_nsec; }

/// Runs `compute` unless `cache` holds an id for (kind, key); stores what it computed.
template <typename Compute>
ImageId cached(const IdCache* cache, std::string_view kind, const std::string& key, Compute compute) {
  ImageId out;
  if (cache != nullptr) {
    if (auto id = cache->lookup(kind, key)) {
      out.id = *id;
      out.cache = ImageId::Cache::hit;
      return out;
    }
    out.cache = ImageId::Cache::miss;
  }
  compute(out);
  if (cache != nullptr) out.cache_warning = cache->store(kind, key, out.id);
  return out;
}

ImageId identify_file(const std::string& path, const struct stat& st, const IdCache* cache) {
  const std::string key = fmt::format("file {} {} {} {} {}", st.st_dev, st.st_ino, st.st_size,
                                      nanoseconds(st.st_mtim), nanoseconds(st.st_ctim));
  return cached(cache, "file", key, [&](ImageId& out) {
    const FileDigest digest = hash_regular_file(path, static_cast<std::uint64_t>(st.st_size));
    out.id = "sha256:" + digest.sha256;
    out.content_bytes = digest.bytes;
  });
}

ImageId identify_tree(const std::string& path, const struct stat& st, const IdCache* cache) {
  std::vector<TreeEntry> entries = walk_tree(path);
  const std::string key = fmt::format("tree {} {} {}", st.st_dev, st.st_ino, metadata_hash(entries));
  return cached(cache, "tree", key, [&](ImageId& out) {
    for (auto& e : entries) {
      if (e.type != EntryType::file) continue;
      const FileDigest digest = hash_regular_file(path + "/" + e.path, e.size);
      e.content_sha256 = digest.sha256;
      out.content_bytes += digest.bytes;
    }
    out.id = tree_hash(entries);
  });
}

}  // namespace

ImageId identify_image(const std::string& path, const IdCache* cache) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) throw Error(ErrorKind::not_found, fmt::format("no image at {}", path));
    throw Error(ErrorKind::io, fmt::format("cannot inspect {}: {}", path, std::strerror(errno)));
  }
  if (S_ISREG(st.st_mode)) return identify_file(path, st, cache);
  if (S_ISDIR(st.st_mode)) return identify_tree(path, st, cache);
  throw Error(ErrorKind::usage, fmt::format("{} is neither a regular file (a SIF or SquashFS image) nor a directory "
                                            "(an image tree)", path));
}

}  // namespace sweep::container
