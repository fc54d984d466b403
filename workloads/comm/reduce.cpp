#include "comm/reduce.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace sweep::comm {
namespace {

// Native element types combine directly; the loops are simple enough for the compiler to vectorise.
template <typename T>
void combine_as(T* dst, const T* a, const T* b, std::size_t count, ReduceOp op) {
  if (op == ReduceOp::max) {
    for (std::size_t i = 0; i < count; ++i) dst[i] = std::max(a[i], b[i]);
  } else {
    if constexpr (std::is_integral_v<T>) {
      // Wrap around on overflow (repeated in-place sums in a timing loop) instead of undefined behaviour.
      using U = std::make_unsigned_t<T>;
      for (std::size_t i = 0; i < count; ++i) dst[i] = static_cast<T>(static_cast<U>(static_cast<U>(a[i]) + static_cast<U>(b[i])));
    } else {
      for (std::size_t i = 0; i < count; ++i) dst[i] = a[i] + b[i];
    }
  }
}

// 16-bit floats: widen, combine, round back.
template <float (*Widen)(std::uint16_t), std::uint16_t (*Narrow)(float)>
void combine16(std::uint16_t* dst, const std::uint16_t* a, const std::uint16_t* b, std::size_t count, ReduceOp op) {
  for (std::size_t i = 0; i < count; ++i) {
    const float x = Widen(a[i]), y = Widen(b[i]);
    dst[i] = Narrow(op == ReduceOp::max ? std::max(x, y) : x + y);
  }
}

template <typename T>
void divide_as(T* data, std::size_t count, int divisor) {
  for (std::size_t i = 0; i < count; ++i) data[i] = static_cast<T>(data[i] / static_cast<T>(divisor));
}

template <float (*Widen)(std::uint16_t), std::uint16_t (*Narrow)(float)>
void divide16(std::uint16_t* data, std::size_t count, int divisor) {
  for (std::size_t i = 0; i < count; ++i) data[i] = Narrow(Widen(data[i]) / static_cast<float>(divisor));
}

}  // namespace

void combine(void* dst, const void* a, const void* b, std::size_t count, DType type, ReduceOp op) {
  using U16 = std::uint16_t;
  switch (type) {
    case DType::fp32:
      combine_as(static_cast<float*>(dst), static_cast<const float*>(a), static_cast<const float*>(b), count, op);
      return;
    case DType::fp64:
      combine_as(static_cast<double*>(dst), static_cast<const double*>(a), static_cast<const double*>(b), count, op);
      return;
    case DType::int32:
      combine_as(static_cast<std::int32_t*>(dst), static_cast<const std::int32_t*>(a),
                 static_cast<const std::int32_t*>(b), count, op);
      return;
    case DType::fp16:
      combine16<half_to_float, float_to_half>(static_cast<U16*>(dst), static_cast<const U16*>(a),
                                              static_cast<const U16*>(b), count, op);
      return;
    case DType::bf16:
      combine16<bf16_to_float, float_to_bf16>(static_cast<U16*>(dst), static_cast<const U16*>(a),
                                              static_cast<const U16*>(b), count, op);
      return;
  }
}

void reduce_into(void* acc, const void* in, std::size_t count, DType type, ReduceOp op) {
  combine(acc, acc, in, count, type, op);
}

void divide(void* data, std::size_t count, DType type, int divisor) {
  switch (type) {
    case DType::fp32: divide_as(static_cast<float*>(data), count, divisor); return;
    case DType::fp64: divide_as(static_cast<double*>(data), count, divisor); return;
    case DType::int32: divide_as(static_cast<std::int32_t*>(data), count, divisor); return;
    case DType::fp16: divide16<half_to_float, float_to_half>(static_cast<std::uint16_t*>(data), count, divisor); return;
    case DType::bf16: divide16<bf16_to_float, float_to_bf16>(static_cast<std::uint16_t*>(data), count, divisor); return;
  }
}

}  // namespace sweep::comm
