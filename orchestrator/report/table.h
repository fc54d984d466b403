#pragma once
// Report tables: points laid out by parameters, cells holding metric statistics. Pure.
#include <string>
#include <vector>

#include "report/campaign_data.h"

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

struct Cell {
  bool present = false;
  MetricStats stats;
};

struct Table {
  std::string title;                               // "" for the per-point table, else the metric
  std::string unit;                                // the metric's unit for a per-metric table
  std::vector<std::string> row_names;              // parameters that label the rows
  std::vector<std::vector<std::string>> row_values;
  std::vector<std::string> columns;                // headers of the value columns
  std::vector<std::vector<Cell>> cells;            // [row][column]
};

/// Builds the tables. Error(usage) for a row, column or metric name the campaign does not have.
std::vector<Table> build_tables(const CampaignData& data, const std::vector<PointResult>& results,
                                const TableSpec& spec);

/// "12.35 ± 0.04 (5)": mean and sample sd to 4 significant digits, then n.
std::string format_cell(const Cell& cell);
/// A number to 4 significant digits ("1234", "0.01235", "1.2e+15"), or as an integer from 1e4 to 1e15.
std::string format_number(double value);

}  // namespace sweep::report
