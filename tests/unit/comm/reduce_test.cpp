#include <catch2/catch.hpp>

#include <climits>
#include <cstdint>
#include <vector>

#include "comm/reduce.h"

using namespace sweep::comm;

namespace {

std::vector<char> filled(DType t, const std::vector<double>& values) {
  std::vector<char> bytes(values.size() * size_of(t));
  for (std::size_t i = 0; i < values.size(); ++i) store(bytes.data(), i, t, values[i]);
  return bytes;
}

std::vector<double> read(DType t, const std::vector<char>& bytes) {
  std::vector<double> out(bytes.size() / size_of(t));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = load(bytes.data(), i, t);
  return out;
}

}  // namespace

TEST_CASE("combine sums and maxes every dtype element-wise") {
  for (DType t : {DType::fp32, DType::fp16, DType::bf16, DType::fp64, DType::int32}) {
    auto a = filled(t, {1, 5, -3, 100});
    const auto b = filled(t, {2, 4, -1, 28});
    auto m = a;
    reduce_into(a.data(), b.data(), 4, t, ReduceOp::sum);
    CHECK(read(t, a) == std::vector<double>{3, 9, -4, 128});
    reduce_into(m.data(), b.data(), 4, t, ReduceOp::max);
    CHECK(read(t, m) == std::vector<double>{2, 5, -1, 100});
    std::vector<char> dst(a.size());
    combine(dst.data(), b.data(), b.data(), 4, t, ReduceOp::avg);  // avg combines as sum
    CHECK(read(t, dst) == std::vector<double>{4, 8, -2, 56});
    divide(dst.data(), 4, t, 2);
    CHECK(read(t, dst) == std::vector<double>{2, 4, -1, 28});
  }
}

TEST_CASE("bf16 sums round to nearest even like the hardware") {
  auto a = filled(DType::bf16, {256});
  const auto b = filled(DType::bf16, {1});
  reduce_into(a.data(), b.data(), 1, DType::bf16, ReduceOp::sum);
  CHECK(read(DType::bf16, a)[0] == 256);  // 257 is not representable; the tie goes to even (256)
}

TEST_CASE("int32 sums wrap around instead of overflowing") {
  std::vector<std::int32_t> a{INT_MAX}, b{1};
  reduce_into(a.data(), b.data(), 1, DType::int32, ReduceOp::sum);
  CHECK(a[0] == INT_MIN);
}
