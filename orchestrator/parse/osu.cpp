#include "parse/osu.h"

#include <fmt/core.h>

#include <array>
#include <optional>

#include "parse/owner_table.h"
#include "parse/result_table.h"
#include "parse/tagged_lines.h"
#include "util/strings.h"

namespace sweep::parse {

namespace {

constexpr std::string_view kParser = "osu";

/// A column the OSU benchmarks print, by its header name. Names compare without their blanks, so
/// "Latency (us)" and "Latency(us)" are one column. An empty metric is read but not reported.
struct ColumnKind {
  std::string_view header;
  std::string_view metric;
  std::string_view unit;
  std::string_view better;
};

constexpr std::array<ColumnKind, 8> kColumns{{
    {"Size", "size_bytes", "B", ""},
    {"Avg Latency(us)", "latency_us", "us", "lower"},  // collectives; osu_latency since 7.x
    {"Latency (us)", "latency_us", "us", "lower"},     // point-to-point and one-sided
    {"Min Latency(us)", "latency_min_us", "us", "lower"},  // -f
    {"Max Latency(us)", "latency_max_us", "us", "lower"},  // -f
    {"Iterations", "iterations", "", ""},                  // -f
    {"Bandwidth (MB/s)", "bandwidth_MBps", "MB/s", "higher"},
    {"Validation", "", "", ""},  // -c: "Pass" or "Fail"
}};

bool same_name(std::string_view a, std::string_view b) {
  std::size_t i = 0, j = 0;
  for (;; ++i, ++j) {
    while (i < a.size() && a[i] == ' ') ++i;
    while (j < b.size() && b[j] == ' ') ++j;
    if (i == a.size() || j == b.size()) return i == a.size() && j == b.size();
    if (a[i] != b[j]) return false;
  }
}

const ColumnKind* find_column(std::string_view header) {
  for (const ColumnKind& kind : kColumns)
    if (same_name(kind.header, header)) return &kind;
  return nullptr;
}

/// Column names of a header: separated by a tab or by two or more spaces (names hold single spaces).
std::vector<std::string_view> column_names(std::string_view text) {
  std::vector<std::string_view> names;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const bool gap = i == text.size() || text[i] == '\t' ||
                     (text[i] == ' ' && i + 1 < text.size() && (text[i + 1] == ' ' || text[i + 1] == '\t'));
    if (!gap) continue;
    if (const std::string_view name = trim(text.substr(start, i - start)); !name.empty()) names.push_back(name);
    start = i + 1;
  }
  return names;
}

/// The column names of a table header line ("# Size       Avg Latency(us)"): a comment whose first
/// column is one this parser knows. Other comments (the title, "# Datatype: MPI_CHAR.") are not headers.
std::optional<std::vector<std::string_view>> header_names(std::string_view body) {
  const std::optional<std::string_view> text = comment_text(body);
  if (!text) return std::nullopt;
  std::vector<std::string_view> names = column_names(*text);
  if (names.empty() || !find_column(names[0])) return std::nullopt;
  return names;
}

bool is_header(std::string_view body) { return !has_binary(body) && header_names(body).has_value(); }

class Reader {
 public:
  Reader(std::string_view source, Collector& out) : source_(source), out_(out) {}
  void line(const TaggedLine& line);
  void finish() { close_table(); }

 private:
  void warn(std::size_t line, std::string_view message) {
    out_.warn(source_, line, fmt::format("{}: {}", kParser, message));
  }
  void open_table(const std::vector<std::string_view>& names, std::size_t line);
  void close_table();

  std::string_view source_;
  Collector& out_;
  std::optional<TableLayout> layout_;  // the open table
  std::size_t header_line_ = 0;
  std::size_t table_rows_ = 0;
  std::size_t rows_ = 0;
};

void Reader::line(const TaggedLine& line) {
  if (has_binary(line.body)) {
    if (layout_) warn(line.number, "line with binary data inside the table; skipped");
    return;
  }
  if (const auto names = header_names(line.body)) return open_table(*names, line.number);
  if (!layout_) return;
  const std::vector<std::string_view> fields = split_fields(line.body);
  if (!looks_like_row(fields) || !read_row(kParser, *layout_, fields, rows_, source_, line.number, out_)) return;
  ++rows_;
  ++table_rows_;
}

void Reader::open_table(const std::vector<std::string_view>& names, std::size_t line) {
  close_table();
  TableLayout layout;
  for (const std::string_view name : names) {
    const ColumnKind* kind = find_column(name);
    if (!kind) warn_unknown_column(kParser, name, source_, line, out_);
    const bool repeated = kind && !kind->metric.empty() && layout.find(kind->metric) != std::string_view::npos;
    layout.columns.push_back(TableColumn{std::string(name), kind && !repeated ? std::string(kind->metric) : "",
                                         kind ? std::string(kind->unit) : "", kind ? std::string(kind->better) : ""});
  }
  layout_ = std::move(layout);
  header_line_ = line;
  table_rows_ = 0;
}

void Reader::close_table() {
  if (layout_ && table_rows_ == 0) warn(header_line_, "table header without rows");
  layout_.reset();
}

}  // namespace

void parse_osu(std::string_view source, std::string_view text, Collector& out) {
  read_owner_table<Reader>({kParser, is_header, "# Size       Avg Latency(us)"}, source, text, out);
}

}  // namespace sweep::parse
