#pragma once
// Element types and reduction operations of the communicator layer, with the conversions that the
// CPU backends and the correctness check need. Pure.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sweep::comm {

enum class DType { fp32, fp16, bf16, fp64, int32 };
enum class ReduceOp { sum, avg, max };

/// Bytes per element.
std::size_t size_of(DType type);
/// "fp32", "fp16", "bf16", "fp64", "int32".
std::string_view name_of(DType type);
/// The nccl-tests spelling of the type for tables: "float", "half", "bfloat16", "double", "int32".
std::string_view table_name_of(DType type);
/// Parses a name_of() spelling (also "float32", "float16", "bfloat16", "float64", "int").
std::optional<DType> parse_dtype(std::string_view text);
/// "fp32, fp16, bf16, fp64, int32", for error messages.
std::string dtype_choices();

std::string_view name_of(ReduceOp op);
std::optional<ReduceOp> parse_reduce_op(std::string_view text);

/// IEEE half and bfloat16 conversions; float -> 16-bit rounds to nearest even (NaN stays NaN).
float half_to_float(std::uint16_t bits);
std::uint16_t float_to_half(float value);
float bf16_to_float(std::uint16_t bits);
std::uint16_t float_to_bf16(float value);

/// Reads element `i` of a buffer of `type` as a double (exact for every type).
double load(const void* data, std::size_t i, DType type);
/// Writes `value` into element `i`, rounded to `type` (integers are truncated towards zero).
void store(void* data, std::size_t i, DType type, double value);

/// The largest integer n such that every integer in [0, n] is exactly representable in `type`.
std::int64_t exact_integer_limit(DType type);

}  // namespace sweep::comm
