#include "parse/result_table.h"

#include <fmt/core.h>

#include <algorithm>

#include "util/strings.h"

namespace sweep::parse {

namespace {

constexpr std::string_view kBlanks = " \t";
constexpr std::string_view kNotMeasured = "N/A";

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::size_t TableLayout::fields() const {
  std::size_t n = 0;
  for (const TableColumn& c : columns) n += c.width;
  return n;
}

std::size_t TableLayout::find(std::string_view metric) const {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i].metric == metric) return i;
  return std::string_view::npos;
}

std::string TableLayout::describe() const {
  std::vector<std::string> names;
  for (const TableColumn& c : columns) names.push_back(printable(c.header));
  return fmt::format("{} columns ({})", fields(), join(names, ", "));
}

std::optional<RowValues> read_row(std::string_view parser, const TableLayout& layout,
                                  const std::vector<std::string_view>& fields, std::size_t row,
                                  std::string_view source, std::size_t line, Collector& out) {
  if (fields.size() != layout.fields()) {
    out.warn(source, line,
             fmt::format("{}: row has {} fields, expected {}; skipped", parser, fields.size(), layout.describe()));
    return std::nullopt;
  }
  RowValues values(layout.columns.size());
  std::size_t at = 0;
  for (std::size_t i = 0; i < layout.columns.size(); at += layout.columns[i].width, ++i) {
    const TableColumn& column = layout.columns[i];
    if (column.metric.empty() || fields[at] == kNotMeasured) continue;
    double value = 0;
    if (!out.number(fields[at], source, line, column.metric, value)) continue;
    values[i] = value;
    out.add(column.metric, row, value, column.unit, column.better);
  }
  return values;
}

void warn_unknown_column(std::string_view parser, std::string_view name, std::string_view source, std::size_t line,
                         Collector& out) {
  out.warn(source, line,
           fmt::format("{}: unknown column \"{}\" in the table header; its values are ignored", parser,
                       printable(name)));
}

std::vector<std::string_view> split_fields(std::string_view text) {
  std::vector<std::string_view> fields;
  std::size_t pos = text.find_first_not_of(kBlanks);
  while (pos != std::string_view::npos) {
    const std::size_t end = std::min(text.find_first_of(kBlanks, pos), text.size());
    fields.push_back(text.substr(pos, end - pos));
    pos = text.find_first_not_of(kBlanks, end);
  }
  return fields;
}

bool looks_like_row(const std::vector<std::string_view>& fields) {
  if (fields.empty() || !is_digit(fields[0][0])) return false;
  return std::all_of(fields[0].begin(), fields[0].end(), [](char c) { return is_digit(c) || c == '.'; });
}

bool has_binary(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && c != '\t') || byte == 0x7f;
  });
}

std::optional<std::string_view> comment_text(std::string_view text) {
  text = trim(text);
  if (text.empty() || text[0] != '#') return std::nullopt;
  return trim(text.substr(1));
}

}  // namespace sweep::parse
