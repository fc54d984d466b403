#include <catch2/catch.hpp>

#include <string>

#include "util/sha256.h"

// Reference digests from FIPS 180-4 examples and `sha256sum`.
TEST_CASE("sha256 matches reference digests") {
  CHECK(sweep::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sweep::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sweep::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sweep::sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256 fed in pieces of every size equals the digest of the whole") {
  std::string data;
  for (int i = 0; i < 1000; ++i) data.push_back(static_cast<char>(i * 7 + 3));
  const std::string whole = sweep::sha256_hex(data);
  for (std::size_t piece : {1u, 3u, 55u, 56u, 63u, 64u, 65u, 127u, 200u}) {
    sweep::Sha256 hash;
    for (std::size_t at = 0; at < data.size(); at += piece) hash.update(std::string_view(data).substr(at, piece));
    CHECK(hash.hex_digest() == whole);
  }
  // `printf abc | sha256sum`, in two pieces
  sweep::Sha256 abc;
  abc.update("a");
  abc.update("bc");
  CHECK(abc.hex_digest() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("sha256 with the CPU's SHA instructions equals the portable code") {
  std::string data;
  for (int i = 0; i < 100000; ++i) data.push_back(static_cast<char>(i * 31 + i / 7));
  const bool cpu = sweep::sha256_cpu_instructions(false);
  CHECK_FALSE(cpu);
  std::vector<std::string> portable;
  for (std::size_t size : {0u, 1u, 55u, 56u, 64u, 65u, 1000u, 100000u}) portable.push_back(sweep::sha256_hex(data.substr(0, size)));
  const bool has = sweep::sha256_cpu_instructions(true);
  WARN("SHA instructions " << (has ? "used" : "not on this CPU: the portable code twice"));
  std::size_t i = 0;
  for (std::size_t size : {0u, 1u, 55u, 56u, 64u, 65u, 1000u, 100000u}) CHECK(sweep::sha256_hex(data.substr(0, size)) == portable[i++]);
  CHECK(sweep::sha256_hex(std::string(1000000, 'a')) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
