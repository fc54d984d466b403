#include "parse/number.h"

#include <charconv>
#include <cmath>

#include "util/strings.h"

namespace sweep::parse {

NumberStatus parse_number(std::string_view text, double& value) {
  text = trim(text);
  if (text.size() > 1 && text.front() == '+' && text[1] != '-' && text[1] != '+') text.remove_prefix(1);
  if (text.empty()) return NumberStatus::not_a_number;
  double parsed = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, parsed);
  if (ptr != end) return NumberStatus::not_a_number;
  if (ec == std::errc::result_out_of_range) return NumberStatus::out_of_range;
  if (ec != std::errc()) return NumberStatus::not_a_number;
  if (!std::isfinite(parsed)) return NumberStatus::not_finite;
  value = parsed;
  return NumberStatus::ok;
}

std::string_view describe(NumberStatus status) {
  switch (status) {
    case NumberStatus::ok:
      return "is a number";
    case NumberStatus::not_a_number:
      return "is not a number";
    case NumberStatus::out_of_range:
      return "is out of range";
    case NumberStatus::not_finite:
      return "is not finite";
  }
  return "is not a number";
}

}  // namespace sweep::parse
