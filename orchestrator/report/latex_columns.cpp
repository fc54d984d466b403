#include "report/latex_columns.h"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <string_view>

#include "util/sinks.h"

namespace sweep::report {
namespace {

/// A number text taken apart: [-]digits[.digits][e[+-]digits]. `number` false: any other text.
struct Parts {
  bool number = false;
  bool negative = false;
  std::string whole, fraction;  // digits only
  int exponent = 0;
  bool has_exponent = false;
};

std::size_t digits_from(std::string_view s, std::size_t i) {
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

Parts parse(std::string_view s) {
  Parts p;
  std::size_t i = 0;
  if (i < s.size() && s[i] == '-') p.negative = true, ++i;
  std::size_t end = digits_from(s, i);
  p.whole = std::string(s.substr(i, end - i));
  i = end;
  if (i < s.size() && s[i] == '.') {
    end = digits_from(s, i + 1);
    p.fraction = std::string(s.substr(i + 1, end - i - 1));
    i = end;
  }
  if (p.whole.empty() && p.fraction.empty()) return Parts{};
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t j = i + 1;
    const bool minus = j < s.size() && s[j] == '-';
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    end = digits_from(s, j);
    if (end == j) return Parts{};
    p.has_exponent = true;
    p.exponent = std::stoi(std::string(s.substr(j, end - j))) * (minus ? -1 : 1);
    i = end;
  }
  p.number = i == s.size();
  return p.number ? p : Parts{};
}

/// The two plain columns of a number, as math: "-12" and ".35" (with "\times10^{15}" after an
/// exponent; "" when there is no fraction); a text that is not a number is "\mbox{text}" and "".
std::pair<std::string, std::string> plain_parts(const std::string& text) {
  const Parts p = parse(text);
  if (!p.number) return {"\\mbox{" + latex_text(text) + "}", ""};
  std::string tail = p.fraction.empty() ? "" : "." + p.fraction;
  if (p.has_exponent) tail += fmt::format("\\times10^{{{}}}", p.exponent);
  return {fmt::format("{}{}", p.negative ? "-" : "", p.whole.empty() ? "0" : p.whole), tail};
}

std::string math(const std::string& text) { return text.empty() ? "" : "$" + text + "$"; }

/// A number without its exponent, the same digits with the point moved ("1.967e-05" -> "0.00001967",
/// "1.2e+3" -> "1200"): siunitx reads "mean \pm uncertainty" only when neither has an exponent.
std::string fixed_text(const std::string& text) {
  const Parts p = parse(text);
  if (!p.number || !p.has_exponent) return text;
  std::string digits = p.whole + p.fraction;
  long point = static_cast<long>(p.whole.size()) + p.exponent;
  if (point <= 0) digits.insert(0, static_cast<std::size_t>(1 - point), '0'), point = 1;
  if (point > static_cast<long>(digits.size())) digits.append(static_cast<std::size_t>(point) - digits.size(), '0');
  std::string whole = digits.substr(0, static_cast<std::size_t>(point));
  whole.erase(0, std::min(whole.find_first_not_of('0'), whole.size() - 1));
  const std::string fraction = digits.substr(static_cast<std::size_t>(point));
  return (p.negative ? "-" : "") + whole + (fraction.empty() ? "" : "." + fraction);
}

/// Whether mean and uncertainty share one power of ten, as report/rounding.h writes them ("5.03e-06",
/// "0.12e-06").
bool same_exponent(const NumberText& c) {
  const Parts m = parse(c.mean);
  const Parts u = parse(c.pm);
  return m.number && u.number && m.has_exponent && u.has_exponent && m.exponent == u.exponent;
}

/// A cell as siunitx reads it: its uncertainty dropped when not a number, and exponents written out
/// when it has an uncertainty, unless both share one power of ten (siunitx_cell writes those compact).
NumberText siunitx_text(const NumberText& c) {
  if (c.pm.empty() || !parse(c.pm).number) return {c.mean, ""};
  if (same_exponent(c)) return c;
  return {fixed_text(c.mean), fixed_text(c.pm)};
}

/// "5.03 \pm 0.12"; with one power of ten for both, siunitx's compact form "5.03(12)e-6", which it
/// prints as (5.03 ± 0.12) × 10^-6.
std::string siunitx_cell(const NumberText& c) {
  if (c.pm.empty()) return c.mean;
  if (!same_exponent(c)) return c.mean + " \\pm " + c.pm;
  const Parts m = parse(c.mean);
  const Parts u = parse(c.pm);
  const std::size_t decimals = std::max(m.fraction.size(), u.fraction.size());
  const std::string fraction = m.fraction + std::string(decimals - m.fraction.size(), '0');
  std::string digits = u.whole + u.fraction + std::string(decimals - u.fraction.size(), '0');
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
  return fmt::format("{}{}{}({})e{}", m.negative ? "-" : "", m.whole.empty() ? "0" : m.whole,
                     fraction.empty() ? "" : "." + fraction, digits, m.exponent);
}

/// The widest parts of a column's numbers, as siunitx's table-format counts them.
struct Format {
  bool sign = false, exponent_sign = false, uncertainty = false;
  std::size_t whole = 1, decimals = 0, uncertainty_digits = 1, exponent = 0;
  std::string text() const {
    std::string out = fmt::format("{}{}.{}", sign ? "-" : "", whole, decimals);
    if (uncertainty) out += fmt::format("({})", uncertainty_digits);
    if (exponent > 0) out += fmt::format("e{}{}", exponent_sign ? "-" : "", exponent);
    return out;
  }
  void add(const NumberText& cell) {
    const Parts m = parse(cell.mean);
    const Parts u = parse(cell.pm);
    if (!m.number) return;
    sign = sign || m.negative;
    whole = std::max(whole, m.whole.size());
    // siunitx pads the mean with zeros to its uncertainty's decimals: "45 \pm 7.19" is 45.00(719).
    const std::size_t cell_decimals = std::max(m.fraction.size(), u.number ? u.fraction.size() : 0);
    decimals = std::max(decimals, cell_decimals);
    if (u.number) {
      uncertainty = true;
      std::string digits = u.whole + u.fraction + std::string(cell_decimals - u.fraction.size(), '0');
      digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
      uncertainty_digits = std::max(uncertainty_digits, std::max<std::size_t>(1, digits.size()));
    }
    if (m.has_exponent) {
      exponent = std::max(exponent, std::to_string(std::abs(m.exponent)).size());
      exponent_sign = exponent_sign || m.exponent < 0;
    }
  }
};

}  // namespace

AlignedColumn align_plain(const std::vector<NumberText>& column) {
  const bool any_pm = std::any_of(column.begin(), column.end(), [](const NumberText& c) { return !c.mean.empty() && !c.pm.empty(); });
  AlignedColumn out;
  out.span = any_pm ? 4 : 2;
  out.spec = any_pm ? "r@{}l@{\\,}r@{}l" : "r@{}l";
  for (const auto& c : column) {
    if (c.mean.empty()) {
      out.cells.push_back(fmt::format("\\multicolumn{{{}}}{{c}}{{--}}", out.span));
      continue;
    }
    const auto [whole, tail] = plain_parts(c.mean);
    std::string cell = math(whole) + " & " + math(tail);
    if (any_pm) {
      const auto [pm_whole, pm_tail] = c.pm.empty() ? std::pair<std::string, std::string>{} : plain_parts(c.pm);
      cell += " & " + (c.pm.empty() ? "" : math("{\\pm}\\," + pm_whole)) + " & " + math(pm_tail);
    }
    out.cells.push_back(cell);
  }
  return out;
}

AlignedColumn align_siunitx(const std::vector<NumberText>& texts) {
  std::vector<NumberText> column;
  for (const auto& c : texts) column.push_back(siunitx_text(c));
  Format format;
  for (const auto& c : column) format.add(c);
  AlignedColumn out;
  out.spec = fmt::format("S[table-format={},separate-uncertainty,table-align-uncertainty=false]", format.text());
  for (const auto& c : column) {
    if (c.mean.empty()) out.cells.push_back("{--}");
    else if (!parse(c.mean).number) out.cells.push_back("{" + latex_text(c.mean) + "}");
    else out.cells.push_back(siunitx_cell(c));
  }
  return out;
}

std::string key_column_spec(const std::vector<std::string>& values) {
  const bool numbers = std::all_of(values.begin(), values.end(), [](const std::string& v) { return v.empty() || parse(v).number; });
  return numbers && !values.empty() ? "r" : "l";
}

}  // namespace sweep::report
