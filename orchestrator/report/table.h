#pragma once
// Report tables: points laid out by parameters, cells holding metric statistics. Pure.
#include <optional>
#include <string>
#include <vector>

#include "report/campaign_data.h"
#include "report/points_view.h"
#include "report/rounding.h"
#include "spec/report_spec.h"

namespace sweep::report {

/// What a table shows. Empty `cols`: one table, one row per point, one column per metric. Non-empty
/// `cols`: one table per metric, rows from `rows`, columns from the combinations of `cols`. Either
/// way, parameters that vary between points but are named in neither list are appended to the rows,
/// so no two points ever share a cell.
struct TableSpec {
  std::vector<std::string> rows;
  std::vector<std::string> cols;
  std::vector<std::string> metrics;  // empty = every metric
};

using spec::Spread;

struct Cell {
  bool present = false;
  MetricStats stats;
  int digits = 0;  // declared significant digits; 0 = rounded by the uncertainty (report/rounding.h)
};

struct Table {
  std::string name;                                // file stem of a declared table; "" otherwise
  std::string title;                               // "" for the per-point table, else the metric or caption
  std::string unit;                                // the metric's unit for a per-metric table
  std::optional<Spread> spread;                    // a declared table's spread; unset = the renderer's default
  std::vector<std::string> row_names;              // parameters that label the rows
  std::vector<std::vector<std::string>> row_values;
  std::vector<std::string> columns;                // headers of the value columns
  std::vector<std::string> column_units;           // the unit each value column's cells are in ("" = none)
  std::vector<std::vector<Cell>> cells;            // [row][column]
  // A pivot's columns: the `cols` parameters and each column's values of them (LaTeX's spanning
  // headers); both empty for other tables.
  std::vector<std::string> col_params;
  std::vector<std::vector<std::string>> col_values;
  std::vector<std::string> column_groups;          // a declared column's `group` ("" none), per column; or empty
  spec::LatexTableOptions latex;                   // a declared table's; the defaults otherwise
};

/// A pivot's column header: "lr=0.1, batch=32" from the `cols` names (or their labels) and one column's values.
std::string pivot_column_header(const std::vector<std::string>& names, const std::vector<std::string>& values);

/// Builds the tables over `points` (the points to show, in order). Error(usage) for a row, column or
/// metric name none of them has.
std::vector<Table> build_tables(const PointsView& points, const TableSpec& spec);

/// The spread of a table that states none, in every rendering (Markdown, HTML, LaTeX): the same cells
/// say the same thing in each, and each format states it once.
inline constexpr Spread kDefaultSpread = Spread::ci95;

/// "12.35 ± 0.04 (5)": the cell's numbers (cell_numbers), then n when `with_n`; "–" for an empty cell.
std::string format_cell(const Cell& cell, Spread spread = Spread::sd, bool with_n = true);
/// How many runs a cell's statistic is over ("5"), which every rendering but LaTeX shows with it: "" for
/// an empty cell.
std::string cell_n(const Cell& cell);
/// The mean and spread a cell shows, rounded together (report/rounding.h: the uncertainty's one or two
/// significant digits, unless the cell has declared `digits`). The spread is the cell's `spread_of`;
/// zero_spread when the table shows a spread and this cell has none (one run, identical runs, an exact
/// value): its text is the mean alone. Spread::none: the mean alone to the cell's digits (4), not zero_spread.
RoundedValue cell_numbers(const Cell& cell, Spread spread);
/// The sentence a table states once when some of its cells show no ± (has_zero_spread).
inline constexpr const char* kZeroSpreadNote = "A cell without ± had no spread: one run, the same value in every run, or an exact value.";
/// Whether any present cell of `t` is zero_spread under `spread`.
bool has_zero_spread(const Table& t, Spread spread);
/// How cells read: "mean ± half-width of the 95% confidence interval", "mean ± standard deviation", "mean".
std::string spread_phrase(Spread spread);
/// The half-width a cell shows for `spread`: the 95% CI's, the sd, or 0 (also for n < 2).
double spread_of(const MetricStats& stats, Spread spread);

/// The unit of the first point that has the metric with a unit; "" otherwise.
std::string metric_unit(const std::string& name, const std::vector<PointResult>& results);
/// "name (unit)" from the first point that has the metric with a unit; the name otherwise.
std::string metric_header(const std::string& name, const std::vector<PointResult>& results);

}  // namespace sweep::report
