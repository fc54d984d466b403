#include "report/latex_header.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "util/sinks.h"

namespace sweep::report {
namespace {

/// Where a header breaks: before " (unit)" at its end, else at the space nearest the middle; npos when
/// it has no space.
std::size_t break_at(std::string_view h) {
  const std::size_t unit = h.rfind(" (");
  if (unit != std::string_view::npos && unit > 0 && h.back() == ')') return unit;
  std::size_t best = std::string_view::npos;
  for (std::size_t i = h.find(' '); i != std::string_view::npos; i = h.find(' ', i + 1))
    if (best == std::string_view::npos || std::abs(static_cast<long>(2 * i) - static_cast<long>(h.size())) <
                                              std::abs(static_cast<long>(2 * best) - static_cast<long>(h.size())))
      best = i;
  return best;
}

using Runs = std::vector<std::pair<std::size_t, std::size_t>>;  // [first, last] value columns

/// Runs of consecutive value columns with equal keys.
Runs runs(const std::vector<std::vector<std::string>>& keys) {
  Runs out;
  for (std::size_t j = 0; j < keys.size(); ++j)
    if (!out.empty() && keys[out.back().first] == keys[j]) out.back().second = j;
    else out.emplace_back(j, j);
  return out;
}

/// Each pivot column's first `depth` values.
std::vector<std::vector<std::string>> prefixes(const Table& t, std::size_t depth) {
  std::vector<std::vector<std::string>> out;
  for (const auto& v : t.col_values) out.emplace_back(v.begin(), v.begin() + static_cast<long>(depth));
  return out;
}

/// A row of spanning cells, one per run, and a \cmidrule under each run whose text(first) is not
/// empty; `text(first)` is its header.
template <typename F>
std::string spanning_row(const Table& t, const std::vector<int>& spans, const Runs& over, F&& text) {
  const std::size_t keys = t.row_names.size();
  std::vector<std::string> cells(keys, "");
  std::string rules;
  for (const auto& [first, last] : over) {
    const int before = std::accumulate(spans.begin(), spans.begin() + static_cast<long>(first), 0);
    const int width = std::accumulate(spans.begin() + static_cast<long>(first), spans.begin() + static_cast<long>(last) + 1, 0);
    const std::string header = text(first);
    cells.push_back(fmt::format("\\multicolumn{{{}}}{{c}}{{{}}}", width, header));
    if (!header.empty())
      rules += fmt::format(" \\cmidrule(lr){{{}-{}}}", static_cast<int>(keys) + before + 1, static_cast<int>(keys) + before + width);
  }
  return fmt::format("{} \\\\\n   {}\n", fmt::join(cells, " & "), rules);
}

std::string value_row(const Table& t, const std::vector<int>& spans, const std::vector<std::string>& headers) {
  std::vector<std::string> cells;
  for (const auto& n : t.row_names) cells.push_back(header_text(n));
  for (std::size_t j = 0; j < headers.size(); ++j)
    cells.push_back(fmt::format("\\multicolumn{{{}}}{{c}}{{{}}}", spans[j], header_text(headers[j])));
  return fmt::format("{} \\\\\n", fmt::join(cells, " & "));
}

}  // namespace

std::string header_text(std::string_view header) {
  const std::size_t at = header.size() > kWrapAt ? break_at(header) : std::string_view::npos;
  if (at == std::string_view::npos) return latex_text(header);
  return fmt::format("\\begin{{tabular}}[b]{{@{{}}c@{{}}}}{}\\\\{}\\end{{tabular}}", latex_text(header.substr(0, at)),
                     latex_text(header.substr(at + 1)));
}

/// Explicit columns: a row of their `group`s over the runs that share one, when any has one.
std::string group_row(const Table& t, const std::vector<int>& spans) {
  if (t.column_groups.size() != t.columns.size() ||
      std::all_of(t.column_groups.begin(), t.column_groups.end(), [](const std::string& g) { return g.empty(); }))
    return "";
  std::vector<std::vector<std::string>> keys;
  for (std::size_t j = 0; j < t.column_groups.size(); ++j)  // an empty group spans only its own column
    keys.push_back({t.column_groups[j], t.column_groups[j].empty() ? std::to_string(j) : ""});
  return spanning_row(t, spans, runs(keys), [&](std::size_t j) { return header_text(t.column_groups[j]); });
}

std::string header_rows(const Table& t, const std::vector<int>& spans) {
  const std::size_t levels = t.col_params.size();
  if (levels == 0 || t.col_values.size() != t.columns.size()) return group_row(t, spans) + value_row(t, spans, t.columns);
  std::string out;
  for (std::size_t d = 0; d + 1 < levels; ++d)
    out += spanning_row(t, spans, runs(prefixes(t, d + 1)), [&](std::size_t j) {
      return latex_text(t.col_params[d]) + " = " + latex_text(t.col_values[j][d]);
    });
  // The name spans all its values' columns, so it is not wrapped as a one-column header is.
  out += spanning_row(t, spans, runs(prefixes(t, levels - 1)), [&](std::size_t) { return latex_text(t.col_params[levels - 1]); });
  std::vector<std::string> values;
  for (const auto& key : t.col_values) values.push_back(key.back());
  return out + value_row(t, spans, values);
}

}  // namespace sweep::report
