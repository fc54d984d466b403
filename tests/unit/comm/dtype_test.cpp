#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "comm/dtype.h"

using namespace sweep::comm;

TEST_CASE("dtype names parse back and sizes match the element types") {
  for (DType t : {DType::fp32, DType::fp16, DType::bf16, DType::fp64, DType::int32}) {
    REQUIRE(parse_dtype(name_of(t)) == t);
  }
  CHECK(parse_dtype("float16") == DType::fp16);
  CHECK(parse_dtype("bfloat16") == DType::bf16);
  CHECK_FALSE(parse_dtype("fp8"));
  CHECK(size_of(DType::fp16) == 2);
  CHECK(size_of(DType::bf16) == 2);
  CHECK(size_of(DType::fp64) == 8);
  CHECK(dtype_choices() == "fp32, fp16, bf16, fp64, int32");
}

// Known bit patterns from IEEE 754 binary16 and bfloat16.
TEST_CASE("half and bfloat16 conversions match known bit patterns") {
  CHECK(float_to_half(1.0f) == 0x3c00);
  CHECK(float_to_half(-2.0f) == 0xc000);
  CHECK(float_to_half(65504.0f) == 0x7bff);
  CHECK(float_to_half(1e6f) == 0x7c00);                 // overflow to infinity
  CHECK(float_to_half(5.960464477539063e-08f) == 0x0001);  // smallest subnormal
  CHECK(half_to_float(0x3555) == Approx(0.33325195f));
  CHECK(half_to_float(0x0001) == 5.960464477539063e-08f);
  CHECK(std::isnan(half_to_float(float_to_half(std::numeric_limits<float>::quiet_NaN()))));
  CHECK(float_to_bf16(1.0f) == 0x3f80);
  CHECK(float_to_bf16(-3.0f) == 0xc040);
  CHECK(bf16_to_float(0x4049) == 3.140625f);
  // 1 + 2^-8 is halfway between two bf16 values: ties round to even (down); just above rounds up.
  CHECK(float_to_bf16(1.00390625f) == 0x3f80);
  CHECK(float_to_bf16(1.01171875f) == 0x3f82);
  // 1 + 2^-11 is halfway for half: ties to even.
  CHECK(float_to_half(1.00048828125f) == 0x3c00);
  CHECK(float_to_half(1.00146484375f) == 0x3c02);
}

TEST_CASE("every integer up to the exact limit survives a round trip") {
  for (DType t : {DType::fp16, DType::bf16}) {
    std::vector<char> buffer(size_of(t));
    for (std::int64_t i = 0; i <= exact_integer_limit(t); ++i) {
      store(buffer.data(), 0, t, static_cast<double>(i));
      REQUIRE(load(buffer.data(), 0, t) == static_cast<double>(i));
    }
    store(buffer.data(), 0, t, static_cast<double>(exact_integer_limit(t) + 1));
    CHECK(load(buffer.data(), 0, t) != static_cast<double>(exact_integer_limit(t) + 1));
  }
}
