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
  std::string out;
  std::vector<std::string> header = t.row_names;
  for (const auto& c : t.columns)
    for (const char* suffix : {" mean", " sd", " n"}) header.push_back(c + suffix);
  append_line(out, header);
  for (std::size_t r = 0; r < t.row_values.size(); ++r) {
    std::vector<std::string> fields = t.row_values[r];
    for (const auto& cell : t.cells[r]) {
      if (!cell.present) {
        fields.insert(fields.end(), {"", "", "0"});
        continue;
      }
      const auto& s = cell.stats.summary;
      fields.push_back(fmt::format("{}", s.mean));
      fields.push_back(fmt::format("{}", s.sd));
      fields.push_back(std::to_string(s.n));
    }
    append_line(out, fields);
  }
  return out;
}

}  // namespace sweep::report
