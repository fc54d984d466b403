#pragma once
// What the built-in parsers share: a result table's columns resolved from its header line, rows read
// against them into observations, and the text tests that tell rows, headers and junk apart.
// Internal to parse/. Pure.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parse/collector.h"

namespace sweep::parse {

/// One column of a result table. A column with an empty `metric` keeps its place in a row but is not
/// reported (e.g. nccl-tests' "type", or a column this build does not know).
struct TableColumn {
  std::string header;  // as printed, for messages
  std::string metric;
  std::string unit;
  std::string better;     // "higher", "lower" or ""
  std::size_t width = 1;  // whitespace-separated fields the column takes in a row (a timestamp takes 2)
};

/// A table's columns, in order, resolved from its header line.
struct TableLayout {
  std::vector<TableColumn> columns;

  /// The number of fields a row of this table has.
  std::size_t fields() const;
  /// The position of the column reporting `metric`, or npos.
  std::size_t find(std::string_view metric) const;
  /// For messages: `13 columns (size, count, ...)`.
  std::string describe() const;
};

/// The value of each column of an accepted row, by position; nullopt where the column is not reported,
/// reads "N/A" or is not a finite number.
using RowValues = std::vector<std::optional<double>>;

/// Reads the row `fields` against `layout`: each reported column gives one observation with index `row`.
/// A cell "N/A" (nccl-tests' #wrong when the check is off) gives no observation and no warning; a cell
/// that is not a finite number gives a warning and no observation. A row with another number of fields
/// gives one warning naming what was expected, and nullopt.
std::optional<RowValues> read_row(std::string_view parser, const TableLayout& layout,
                                  const std::vector<std::string_view>& fields, std::size_t row,
                                  std::string_view source, std::size_t line, Collector& out);

/// Warns, at the header's `line`, that the table has column `name`, which `parser` does not know and
/// whose values it skips.
void warn_unknown_column(std::string_view parser, std::string_view name, std::string_view source, std::size_t line,
                         Collector& out);

/// The whitespace-separated fields of `text`.
std::vector<std::string_view> split_fields(std::string_view text);

/// True when `fields` can be a table row: the first field is made of digits (and '.') only and starts
/// with a digit. Other lines inside a table (launcher or library messages) are not rows.
bool looks_like_row(const std::vector<std::string_view>& fields);

/// True when `text` holds control bytes other than tab: binary data rather than program output.
bool has_binary(std::string_view text);

/// The text of a comment line without its leading '#' and surrounding blanks, or nullopt when `text`
/// (after blanks) does not start with '#'.
std::optional<std::string_view> comment_text(std::string_view text);

}  // namespace sweep::parse
