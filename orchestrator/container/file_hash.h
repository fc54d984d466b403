#pragma once
// A file's content SHA-256, read in bounded pieces (an image file may be gigabytes).
#include <cstdint>
#include <string>

namespace sweep::container {

struct FileDigest {
  std::string sha256;        // hex
  std::uint64_t bytes = 0;   // bytes read
};

/// Reads the open descriptor `fd` to its end from where it stands. Error(io) naming `name` on a read
/// error. Does not close `fd`.
FileDigest hash_descriptor(int fd, const std::string& name);

/// Opens `path` (O_NOFOLLOW: a symlink there is refused, Error(io)), checks it is a regular file of
/// `expected_size` bytes (Error(io) "changed while it was hashed" otherwise) and hashes it.
FileDigest hash_regular_file(const std::string& path, std::uint64_t expected_size);

}  // namespace sweep::container
