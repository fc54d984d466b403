#include "comm/dtype.h"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>

namespace sweep::comm {
namespace {

struct DTypeInfo {
  DType type;
  std::string_view name;
  std::string_view table_name;
  std::string_view alias;
  std::size_t size;
  std::int64_t exact_limit;
};

constexpr std::array<DTypeInfo, 5> kTypes{{
    {DType::fp32, "fp32", "float", "float32", 4, std::int64_t{1} << 24},
    {DType::fp16, "fp16", "half", "float16", 2, 2048},
    {DType::bf16, "bf16", "bfloat16", "bfloat16", 2, 256},
    {DType::fp64, "fp64", "double", "float64", 8, std::int64_t{1} << 53},
    {DType::int32, "int32", "int32", "int", 4, 2147483647},
}};

constexpr std::array<std::pair<ReduceOp, std::string_view>, 3> kOps{{
    {ReduceOp::sum, "sum"}, {ReduceOp::avg, "avg"}, {ReduceOp::max, "max"}}};

const DTypeInfo& info(DType type) {
  for (const auto& i : kTypes)
    if (i.type == type) return i;
  return kTypes[0];
}

template <typename T>
T read_as(const void* data, std::size_t i) {
  T v;
  std::memcpy(&v, static_cast<const char*>(data) + i * sizeof(T), sizeof(T));
  return v;
}

template <typename T>
void write_as(void* data, std::size_t i, T v) {
  std::memcpy(static_cast<char*>(data) + i * sizeof(T), &v, sizeof(T));
}

}  // namespace

std::size_t size_of(DType type) { return info(type).size; }
std::string_view name_of(DType type) { return info(type).name; }
std::string_view table_name_of(DType type) { return info(type).table_name; }
std::int64_t exact_integer_limit(DType type) { return info(type).exact_limit; }

std::optional<DType> parse_dtype(std::string_view text) {
  for (const auto& i : kTypes)
    if (text == i.name || text == i.alias) return i.type;
  return std::nullopt;
}

std::string dtype_choices() {
  std::string out;
  for (const auto& i : kTypes) out += (out.empty() ? "" : ", ") + std::string(i.name);
  return out;
}

std::string_view name_of(ReduceOp op) {
  for (const auto& [o, name] : kOps)
    if (o == op) return name;
  return "?";
}

std::optional<ReduceOp> parse_reduce_op(std::string_view text) {
  for (const auto& [o, name] : kOps)
    if (text == name) return o;
  return std::nullopt;
}

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = (h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1f;
  const std::uint32_t man = h & 0x3ffu;
  if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (man << 13));
  if (exp != 0) return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
  // Zero or subnormal: man * 2^-24.
  const float magnitude = std::ldexp(static_cast<float>(man), -24);
  return sign ? -magnitude : magnitude;
}

std::uint16_t float_to_half(float value) {
  const std::uint32_t f = std::bit_cast<std::uint32_t>(value);
  const auto sign = static_cast<std::uint16_t>((f >> 16) & 0x8000u);
  if (std::isnan(value)) return static_cast<std::uint16_t>(sign | 0x7e00u);
  const float a = std::fabs(value);
  if (a >= 65520.0f) return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds to infinity
  if (a < 6.103515625e-05f) {                                            // subnormal half range
    const auto man = static_cast<std::uint16_t>(std::nearbyint(a * 16777216.0f));  // a / 2^-24
    return static_cast<std::uint16_t>(sign | man);
  }
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(a);
  std::uint32_t h = ((bits >> 23) - 112) << 10 | ((bits >> 13) & 0x3ffu);
  const std::uint32_t rest = bits & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // round to nearest even
  return static_cast<std::uint16_t>(sign | h);
}

float bf16_to_float(std::uint16_t bits) { return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16); }

std::uint16_t float_to_bf16(float value) {
  const std::uint32_t f = std::bit_cast<std::uint32_t>(value);
  if (std::isnan(value)) return static_cast<std::uint16_t>((f >> 16) | 0x40u);
  const std::uint32_t rounding = 0x7fffu + ((f >> 16) & 1u);
  return static_cast<std::uint16_t>((f + rounding) >> 16);
}

double load(const void* data, std::size_t i, DType type) {
  switch (type) {
    case DType::fp32: return read_as<float>(data, i);
    case DType::fp16: return half_to_float(read_as<std::uint16_t>(data, i));
    case DType::bf16: return bf16_to_float(read_as<std::uint16_t>(data, i));
    case DType::fp64: return read_as<double>(data, i);
    case DType::int32: return read_as<std::int32_t>(data, i);
  }
  return 0;
}

void store(void* data, std::size_t i, DType type, double value) {
  switch (type) {
    case DType::fp32: write_as(data, i, static_cast<float>(value)); return;
    case DType::fp16: write_as(data, i, float_to_half(static_cast<float>(value))); return;
    case DType::bf16: write_as(data, i, float_to_bf16(static_cast<float>(value))); return;
    case DType::fp64: write_as(data, i, value); return;
    case DType::int32: write_as(data, i, static_cast<std::int32_t>(value)); return;
  }
}

}  // namespace sweep::comm
