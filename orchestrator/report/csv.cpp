#include "report/csv.h"

#include <fmt/core.h>

#include "util/sinks.h"

namespace sweep::report {
namespace {

void append_line(std::string& out, const std::vector<std::string>& fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ',';
    out += csv_report_cell(fields[i]);
  }
  out += "\r\n";
}

}  // namespace

std::string csv_table(const Table& t) {
  const Spread spread = t.spread.value_or(kDefaultSpread);
  std::string out;
  std::vector<std::string> header = t.row_names;
  for (const auto& c : t.columns)
    for (const char* suffix : {" mean", " sd", " n"}) header.push_back(c + suffix);
  for (const auto& c : t.columns)
    for (const char* suffix : {" mean shown", " uncertainty shown"}) header.push_back(c + suffix);
  append_line(out, header);
  for (std::size_t r = 0; r < t.row_values.size(); ++r) {
    std::vector<std::string> fields = t.row_values[r];
    std::vector<std::string> shown;
    for (const auto& cell : t.cells[r]) {
      if (!cell.present || cell.stats.summary.n == 0) {
        fields.insert(fields.end(), {"", "", "0"});
        shown.insert(shown.end(), {"", ""});
        continue;
      }
      const auto& s = cell.stats.summary;
      fields.push_back(fmt::format("{}", s.mean));
      fields.push_back(fmt::format("{}", s.sd));
      fields.push_back(std::to_string(s.n));
      const RoundedValue rounded = cell_numbers(cell, spread);
      shown.insert(shown.end(), {rounded.mean, rounded.uncertainty});
    }
    fields.insert(fields.end(), shown.begin(), shown.end());
    append_line(out, fields);
  }
  return out;
}

}  // namespace sweep::report
