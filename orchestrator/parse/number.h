#pragma once
// Text-to-number conversion for extracted metric values. Internal to parse/. Pure.
#include <string_view>

namespace sweep::parse {

enum class NumberStatus {
  ok,            // `value` holds a finite number
  not_a_number,  // the text is not a decimal floating-point literal
  out_of_range,  // the literal overflows (or underflows) a double, e.g. "1e999"
  not_finite,    // "inf", "-inf", "nan" and friends
};

/// Parses `text` (surrounding ASCII whitespace allowed, optional leading '+' or '-') as a double with
/// std::from_chars. The whole text must be consumed. `value` is written only when the result is ok.
NumberStatus parse_number(std::string_view text, double& value);

/// The tail of a warning for a non-ok status: "is not a number", "is out of range", "is not finite".
std::string_view describe(NumberStatus status);

}  // namespace sweep::parse
