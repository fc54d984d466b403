#pragma once
// The element types the model counts bytes of (docs/model.md): one table for `sweep model --dtype` and a
// report model's `dtype` and `gradient_dtype`. Pure.
#include <array>
#include <optional>
#include <string_view>
#include <utility>

namespace sweep::model {

inline constexpr std::array<std::pair<std::string_view, double>, 4> kDtypeBytes{
    {{"bf16", 2}, {"fp16", 2}, {"fp32", 4}, {"fp64", 8}}};

/// Bytes per element of `dtype`, or nullopt for a name not in kDtypeBytes.
inline std::optional<double> dtype_bytes(std::string_view dtype) {
  for (const auto& [name, bytes] : kDtypeBytes)
    if (dtype == name) return bytes;
  return std::nullopt;
}

/// "bf16, fp16, fp32 or fp64": the names, for messages.
inline constexpr std::string_view kDtypeNames = "bf16, fp16, fp32 or fp64";

}  // namespace sweep::model
