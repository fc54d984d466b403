#pragma once
// SHA-256 (FIPS 180-4), used for point ids and spec hashes. Pure.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sweep {

/// Incremental SHA-256: update() any number of times, then hex_digest() once (the object is spent
/// after it). For content too big to hold at once (an image file of gigabytes).
class Sha256 {
 public:
  void update(std::string_view data);
  /// Lower-case hex digest (64 characters) of everything updated.
  std::string hex_digest();

 private:
  std::array<std::uint32_t, 8> h_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::array<unsigned char, 64> block_{};
  std::size_t block_len_ = 0;
  std::uint64_t total_ = 0;
};

/// Whether the x86 SHA instructions are used where the CPU has them (by default they are); `false`
/// makes this process use the portable code only (the tests compare the two). Returns whether they are
/// used now.
bool sha256_cpu_instructions(bool allowed);

/// Lower-case hex digest (64 characters) of `data`.
std::string sha256_hex(std::string_view data);

}  // namespace sweep
