#pragma once
// How a measurement is written in a report table: its mean rounded by its uncertainty (the Particle Data
// Group's rule, as the JCGM GUM advises), the same text in Markdown, HTML, LaTeX and CSV. Pure.
#include <string>

namespace sweep::report {

/// A mean and its uncertainty as a table shows them, each a plain number a reader (or siunitx, or a
/// spreadsheet) can parse: "45", "7"; "0.627", "0.007"; in exponent form both share the power of ten:
/// "1.234e+15", "0.012e+15".
struct RoundedValue {
  std::string mean;
  std::string uncertainty;   // "" when zero_spread
  bool zero_spread = false;  // the uncertainty was 0: the mean alone is shown
};

/// `mean` and its `uncertainty` (a CI half-width or an sd, in the mean's unit) written by the PDG rule:
/// the uncertainty's three leading digits 100..354 keep two significant digits, 355..949 one, and
/// 950..999 round up to 1000 and keep two ("0.096" -> "0.10"); the mean is rounded to the same decimal
/// place ("45 ± 7", "0.627 ± 0.007", "3 ± 12", "0.0 ± 0.5"). A magnitude (the larger of |mean| and the
/// uncertainty) of 1e15 or more, or below 1e-4, is written in exponent form, the mean's power of ten
/// for both ("2.00e+15 ± 0.30e+15"). A rounded mean of zero has no sign. A value exactly halfway (in
/// binary: 32.5, not 0.15) rounds to the even digit, as ISO 80000-1 prefers ("32.5 ± 6.4" -> "32 ± 6").
///
/// `digits` > 0 (a table's or column's declared `digits:`) overrides the rule: both to that many
/// significant digits (format_number). An uncertainty of 0 (the caller passes 0 for one run or an exact
/// value), or one below the mean's resolution (|mean| x the double's epsilon, 2.2e-16), gives the mean to
/// `digits` (4 when 0) significant digits, zero_spread and no uncertainty text.
/// A NaN or infinite mean or uncertainty is written by format_number ("nan", "inf"); a negative
/// uncertainty counts by its magnitude.
RoundedValue round_measurement(double mean, double uncertainty, int digits = 0);

/// "45 ± 7", or the mean alone when it has no uncertainty text.
std::string plus_minus_text(const RoundedValue& value);

/// A number to `digits` significant digits ("12.35", "0.01235", "1.2e+15"), or as a rounded integer when
/// it has more integer digits than that, below 1e15 ("219046" at 4 digits, "1000" at 3).
std::string format_number(double value, int digits = 4);

}  // namespace sweep::report
