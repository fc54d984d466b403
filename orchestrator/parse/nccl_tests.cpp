#include "parse/nccl_tests.h"

#include <fmt/core.h>

#include <array>
#include <optional>

#include "parse/owner_table.h"
#include "parse/result_table.h"
#include "parse/tagged_lines.h"

namespace sweep::parse {

namespace {

constexpr std::string_view kParser = "nccl-tests";
constexpr std::string_view kInPlace = "_inplace";

/// A column nccl-tests prints (src/util.cu, writeResultHeader). The first time/algbw/busbw/#wrong group
/// is out-of-place; a second one is in-place and reports `metric` + "_inplace". An empty metric is read
/// but not reported.
struct ColumnKind {
  std::string_view header;
  std::string_view metric;
  std::string_view unit;
  std::string_view better;
  std::size_t width = 1;
};

constexpr std::array<ColumnKind, 16> kColumns{{
    {"size", "size_bytes", "B", ""},
    {"count", "count", "elements", ""},
    {"type", "", "", ""},
    {"redop", "", "", ""},
    {"root", "", "", ""},
    {"time", "time_us", "us", "lower"},
    {"cputime", "time_us", "us", "lower"},  // -C 1
    {"algbw", "algbw", "GB/s", "higher"},
    {"busbw", "busbw", "GB/s", "higher"},
    {"#wrong", "wrong", "elements", "lower"},
    {"error", "wrong", "elements", "lower"},  // versions before 2.13 print a float error here
    {"i_min", "", "", ""},                    // per-iteration timing (-I)
    {"i_max", "", "", ""},
    {"i_p99", "", "", ""},
    {"i_cv%", "", "", ""},
    {"timestamp", "", "", "", 2},  // "YYYY-MM-DD HH:MM:SS"
}};

/// A summary line after a table, `# <label> : <value> ...`, and the metric its value feeds.
struct Summary {
  std::string_view label;
  std::string_view metric;
  std::string_view unit;
  std::string_view better;
};

constexpr std::array<Summary, 2> kSummaries{{
    {"Out of bounds values", "out_of_bounds", "", "lower"},
    {"Avg bus bandwidth", "busbw_avg", "GB/s", "higher"},
}};

/// The summary that ends a table.
constexpr std::string_view kFinalSummary = "busbw_avg";

const ColumnKind* find_column(std::string_view header) {
  for (const ColumnKind& kind : kColumns)
    if (kind.header == header) return &kind;
  return nullptr;
}

/// The fields of a table header line ("#  size  count  type ..."), or nothing.
std::optional<std::vector<std::string_view>> header_fields(std::string_view body) {
  const std::optional<std::string_view> text = comment_text(body);
  if (!text || text->substr(0, 4) != "size") return std::nullopt;
  std::vector<std::string_view> fields = split_fields(*text);
  if (fields.size() < 2 || fields[0] != "size" || fields[1] != "count") return std::nullopt;
  return fields;
}

bool is_header(std::string_view body) { return !has_binary(body) && header_fields(body).has_value(); }

/// The metric a column reports in this layout: the in-place name for the second occurrence; nothing for
/// any further one.
std::string metric_for(const TableLayout& layout, std::string_view metric) {
  std::string name(metric);
  if (name.empty() || layout.find(name) == std::string_view::npos) return name;
  name += kInPlace;
  return layout.find(name) == std::string_view::npos ? name : "";
}

/// One table while it is being read.
struct Table {
  TableLayout layout;
  std::size_t number = 0;       // 0 for the first table of the source
  std::size_t header_line = 0;
  std::size_t last_row_line = 0;
  std::size_t rows = 0;
  std::size_t busbw = std::string_view::npos;  // column positions
  std::size_t size = std::string_view::npos;
  std::optional<double> peak;
  std::optional<double> peak_size;
};

class Reader {
 public:
  Reader(std::string_view source, Collector& out) : source_(source), out_(out) {}
  void line(const TaggedLine& line);
  void finish() { close_table(false); }

 private:
  void warn(std::size_t line, std::string_view message) {
    out_.warn(source_, line, fmt::format("{}: {}", kParser, message));
  }
  void open_table(const std::vector<std::string_view>& names, std::size_t line);
  void close_table(bool complete);
  void row(const std::vector<std::string_view>& fields, std::size_t line);
  bool summary(std::string_view body, std::size_t line);

  std::string_view source_;
  Collector& out_;
  std::optional<Table> table_;
  std::size_t tables_ = 0;
  std::size_t rows_ = 0;
};

void Reader::line(const TaggedLine& line) {
  if (has_binary(line.body)) {
    if (table_) warn(line.number, "line with binary data inside the table; skipped");
    return;
  }
  if (const auto names = header_fields(line.body)) return open_table(*names, line.number);
  if (summary(line.body, line.number) || !table_) return;
  const std::vector<std::string_view> fields = split_fields(line.body);
  if (looks_like_row(fields)) row(fields, line.number);
}

void Reader::open_table(const std::vector<std::string_view>& names, std::size_t line) {
  close_table(false);
  Table table;
  table.number = tables_++;
  table.header_line = line;
  for (const std::string_view name : names) {
    const ColumnKind* kind = find_column(name);
    if (!kind) warn_unknown_column(kParser, name, source_, line, out_);
    const ColumnKind unknown{name, "", "", ""};
    const ColumnKind& k = kind ? *kind : unknown;
    table.layout.columns.push_back(TableColumn{std::string(name), metric_for(table.layout, k.metric),
                                               std::string(k.unit), std::string(k.better), k.width});
  }
  table.busbw = table.layout.find("busbw");
  table.size = table.layout.find("size_bytes");
  table_ = std::move(table);
}

void Reader::close_table(bool complete) {
  if (!table_) return;
  if (table_->rows == 0)
    warn(table_->header_line, "table header without rows");
  else if (!complete)
    warn(table_->last_row_line, "the table ends without its \"# Avg bus bandwidth\" line (output cut short?)");
  if (table_->peak) {
    out_.add("busbw_peak", table_->number, *table_->peak, "GB/s", "higher");
    if (table_->peak_size) out_.add("busbw_peak_size_bytes", table_->number, *table_->peak_size, "B", "");
  }
  table_.reset();
}

void Reader::row(const std::vector<std::string_view>& fields, std::size_t line) {
  Table& t = *table_;
  const std::optional<RowValues> values = read_row(kParser, t.layout, fields, rows_, source_, line, out_);
  if (!values) return;
  ++rows_;
  ++t.rows;
  t.last_row_line = line;
  if (t.busbw == std::string_view::npos || !(*values)[t.busbw]) return;
  if (t.peak && *t.peak >= *(*values)[t.busbw]) return;  // the first row reaching the maximum wins
  t.peak = (*values)[t.busbw];
  t.peak_size = t.size == std::string_view::npos ? std::nullopt : (*values)[t.size];
}

/// Reads `# <label> : <value>`; true when the line is a summary line (read or warned about).
bool Reader::summary(std::string_view body, std::size_t line) {
  const std::optional<std::string_view> text = comment_text(body);
  if (!text) return false;
  for (const Summary& s : kSummaries) {
    if (text->substr(0, s.label.size()) != s.label) continue;
    const std::size_t colon = text->find(':');
    const std::vector<std::string_view> fields =
        split_fields(colon == std::string_view::npos ? std::string_view() : text->substr(colon + 1));
    const std::size_t index = tables_ == 0 ? 0 : tables_ - 1;
    double value = 0;
    if (fields.empty())
      warn(line, fmt::format("no value after \"{} :\"", s.label));
    else if (out_.number(fields[0], source_, line, std::string(s.metric), value))
      out_.add(std::string(s.metric), index, value, std::string(s.unit), std::string(s.better));
    if (s.metric == kFinalSummary) close_table(true);
    return true;
  }
  return false;
}

}  // namespace

void parse_nccl_tests(std::string_view source, std::string_view text, Collector& out) {
  read_owner_table<Reader>({kParser, is_header, "#  size  count  type  redop  root  time  algbw  busbw  #wrong ..."},
                           source, text, out);
}

}  // namespace sweep::parse
