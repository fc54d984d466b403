#pragma once
// SHA-256 (FIPS 180-4), used for point ids and spec hashes. Pure.
#include <string>
#include <string_view>

namespace sweep {

/// Lower-case hex digest (64 characters) of `data`.
std::string sha256_hex(std::string_view data);

}  // namespace sweep
