#pragma once
// The numeric x axis of a figure (docs/reports.md#figures): a range that hugs the data, a tic at each of
// the data's own values on a logarithmic axis over few values (32, 64, 128, not decades), series at the
// same x moved apart ("dodged") so their error bars do not sit on each other, and where the key goes.
// Pure: numbers in, gnuplot settings out; report/figure.cpp quotes the labels for its terminal.
#include <cstddef>
#include <string>
#include <vector>

namespace sweep::report {

/// A logarithmic axis over at most this many distinct values gets a tic at each; over more, decades.
inline constexpr std::size_t kMaxValueTics = 12;

struct AxisTic {
  std::string label;  // the value's own text, as in the data ("32"); not yet quoted
  double at = 0;
};

struct XAxis {
  double low = 0, high = 0;   // `set xrange [low:high]`: the data, the dodge and a margin of 5% of the span
  std::vector<AxisTic> tics;  // empty: gnuplot's own tics (decades on a logarithmic axis)
};

/// The axis over `values` (distinct, ascending; > 0 when `log`) whose texts are `labels`, with `series`
/// dodged series at each value. None (low == high) for no values, or a log axis over a value <= 0.
XAxis x_axis(const std::vector<double>& values, const std::vector<std::string>& labels, bool log, std::size_t series);

/// The shift of series `i` of `n` at one x, so their error bars stay apart: a factor on a logarithmic axis
/// (a fraction of the smallest ratio of neighbouring values), else an offset (a fraction of the smallest
/// gap). Together the n series spread over a tenth of that gap. 1 (log) or 0 for a single series.
double dodge(std::size_t i, std::size_t n, const std::vector<double>& values, bool log);

/// The x of series `i` of `n` in a plot's `using`: "1" when not moved, else "($1*1.071773)" (log) or
/// "($1+0.2)".
std::string dodged_x(std::size_t i, std::size_t n, const std::vector<double>& values, bool log);

/// Where the key goes in a panel with `entries` titled lines: none for one or none (the axis labels and
/// the caption say it), else above the plot area, outside it, in rows, so it never covers data. (In a
/// paper figure gnuplot measures a title by its LaTeX, so a title with many escapes takes more room.)
std::string key_setting(std::size_t entries);

}  // namespace sweep::report
