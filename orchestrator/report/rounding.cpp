#include "report/rounding.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace sweep::report {
namespace {

constexpr int kDefaultDigits = 4;
// Magnitudes at or past these are written in exponent form (the first as format_number's limit of
// integers, the second as printf's %g).
constexpr double kLargest = 1e15;
constexpr double kSmallest = 1e-4;

/// The decimal exponent of |x|'s leading digit once rounded to `digits` significant digits: a value
/// that rounds up to the next decade (9.996 at 3 digits) counts in it. x != 0.
int decade(double x, int digits) {
  const std::string s = fmt::format("{:.{}e}", std::fabs(x), digits - 1);
  return std::atoi(s.c_str() + s.find('e') + 1);
}

/// The uncertainty rounded by the rule: the power of ten of its last kept digit and the value to write
/// there. Its three leading digits (correctly rounded from its binary value) 100..354 keep two digits,
/// 355..949 one, and 950..999 become 1000 and keep two ("1.0" x 10^(e+1), whose second digit is at 10^e).
struct Rounded {
  int place;
  double value;
};
Rounded round_uncertainty(double uncertainty) {
  const std::string s = fmt::format("{:.2e}", uncertainty);  // "7.19e+00"
  const int leading = (s[0] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
  const int e = std::atoi(s.c_str() + 5);
  if (leading <= 354) return {e - 1, uncertainty};
  if (leading <= 949) return {e, uncertainty};
  return {e, std::pow(10.0, e + 1)};  // not the value itself: 0.95 is 0.9499... in binary, and would print 0.9
}

/// `value` with `decimals` >= 0 digits after the point, without the sign of a zero ("-0.0" -> "0.0").
std::string fixed(double value, int decimals) {
  std::string s = fmt::format("{:.{}f}", value, decimals);
  if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
  return s;
}

/// `value` rounded to a multiple of 10^place (place > 0), as an integer text; a tie to the even multiple,
/// as fmt rounds an exact tie in `fixed` (ISO 80000-1's rule A).
std::string integer(double value, int place) {
  const double unit = std::pow(10.0, place);
  return fixed(std::nearbyint(value / unit) * unit, 0);
}

/// "e+15", "e-06": the exponent as fmt and printf write it.
std::string exponent_suffix(int e) { return fmt::format("e{}{:02d}", e < 0 ? '-' : '+', std::abs(e)); }

RoundedValue by_rule(double mean, double exact_uncertainty) {
  const auto [place, uncertainty] = round_uncertainty(exact_uncertainty);
  const double magnitude = std::fmax(std::fabs(mean), uncertainty);
  if (magnitude >= kLargest || magnitude < kSmallest) {
    const int power = decade(magnitude, std::max(1, decade(magnitude, 17) - place + 1));
    const double scale = std::pow(10.0, power);
    const int decimals = std::max(0, power - place);
    return {fixed(mean / scale, decimals) + exponent_suffix(power), fixed(uncertainty / scale, decimals) + exponent_suffix(power)};
  }
  if (place > 0) return {integer(mean, place), integer(uncertainty, place)};
  return {fixed(mean, -place), fixed(uncertainty, -place)};
}

}  // namespace

std::string format_number(double value, int digits) {
  // Magnitudes with more integer digits than `digits` print as rounded integers (219046, not 2.19e+05;
  // 1000 at 3 digits, not 1e+03); the rest to `digits` significant digits.
  const double magnitude = std::fabs(value);
  if (magnitude >= std::pow(10.0, digits) && magnitude < kLargest) return fmt::format("{:.0f}", value);
  return fmt::format("{:.{}g}", value, digits);
}

RoundedValue round_measurement(double mean, double uncertainty, int digits) {
  const int shown = digits > 0 ? digits : kDefaultDigits;
  uncertainty = std::fabs(uncertainty);
  // Below the mean's own resolution (a double's epsilon of it) an uncertainty is no digit the mean can
  // hold: no spread, rather than a mean written to hundreds of decimals.
  if (uncertainty == 0 || (std::isfinite(mean) && uncertainty < std::fabs(mean) * std::numeric_limits<double>::epsilon()))
    return {format_number(mean, shown), "", true};
  if (!std::isfinite(mean) || !std::isfinite(uncertainty) || digits > 0)
    return {format_number(mean, shown), format_number(uncertainty, shown)};
  return by_rule(mean, uncertainty);
}

std::string plus_minus_text(const RoundedValue& value) {
  return value.uncertainty.empty() ? value.mean : value.mean + " ± " + value.uncertainty;
}

}  // namespace sweep::report
