#include "report/declared_tables.h"

#include <fmt/core.h>

#include <algorithm>

#include "report/baseline.h"
#include "report/derived.h"
#include "report/units.h"
#include "util/error.h"
#include "util/sinks.h"
#include "util/strings.h"

namespace sweep::report {
namespace {

using Bases = std::vector<const PointResult*>;  // each row's baseline point, or nullptr

/// Orders points by the `rows` parameters (numerically when both values are numbers), keeping point
/// order among equals.
void sort_rows(std::vector<PointResult>& results, const std::vector<std::string>& rows) {
  const auto less = [&](const PointResult& a, const PointResult& b) {
    for (const auto& name : rows) {
      const auto* x = find_param(*a.point, name);
      const auto* y = find_param(*b.point, name);
      if (!x || !y || x->value == y->value) continue;
      const std::optional<double> nx = param_number(*x), ny = param_number(*y);
      return nx && ny ? *nx < *ny : x->value < y->value;
    }
    return false;
  };
  std::stable_sort(results.begin(), results.end(), less);
}

/// What a metric column shows of its metric: the values times `factor`, in `unit`.
struct Shown {
  double factor = 1;
  std::string unit;
};

/// The column's `unit` (converted from the metric's, report/units.h) times its `scale`; the metric's
/// own unit when it names none. Error(invalid_experiment) at the column's `unit` for a unit the
/// metric's does not convert to, or a metric without a unit.
Shown shown(const spec::ReportColumn& c, const std::vector<PointResult>& results) {
  if (c.derived != spec::DerivedMetric::none)
    return {1, c.derived == spec::DerivedMetric::efficiency ? std::string("%") : std::string()};
  const std::string from = metric_unit(c.metric, results);
  if (c.unit.empty()) return {c.scale, from};
  if (from.empty())
    fail_at(c.unit_at, fmt::format("metric \"{}\" has no unit to convert to {}; give \"scale\" and a \"label\" instead",
                                   c.metric, c.unit));
  const double factor = at_location(c.unit_at, [&] { return conversion_factor(from, c.unit); });
  return {factor * c.scale, c.unit};
}

std::string derived_header(const spec::ReportColumn& c, const Shown& unit) {
  if (!c.label.empty()) return c.label;
  const std::string suffix = unit.unit.empty() ? "" : " (" + unit.unit + ")";
  if (c.derived == spec::DerivedMetric::none && !c.predicted.empty()) return "predicted " + c.predicted + suffix;
  if (c.derived == spec::DerivedMetric::none) return c.metric + suffix;
  return fmt::format("{} of {}{}", spec::derived_name(c.derived), c.metric, suffix);
}

void check_columns(const spec::ReportTable& spec, const PointsView& points) {
  const auto& params = points.params;
  const auto& metrics = points.metrics;
  bool seen_metric = false;
  for (const auto& c : spec.columns) {
    if (!c.metric.empty()) {
      seen_metric = true;
      require_known_at(c.at, {c.metric}, metrics, "metric");
      continue;
    }
    if (seen_metric)
      fail_at(c.at, "parameter and value columns come before metric columns (they label the rows)");
    if (!c.param.empty()) require_known_at(c.at, {c.param}, params, "parameter");
  }
}

Cell metric_cell(const spec::ReportColumn& c, const Shown& unit, const spec::ReportTable& spec,
                 const std::vector<PointResult>& results, const Bases& bases, std::size_t i) {
  Cell cell;
  cell.digits = c.digits > 0 ? c.digits : spec.digits;
  if (c.derived != spec::DerivedMetric::none) {
    if (!bases[i]) return cell;
    const auto stats = at_location(c.at, [&] { return derive(c.derived, c.metric, results[i], *bases[i], spec.baseline); });
    if (stats) cell.present = true, cell.stats = *stats;
    return cell;
  }
  if (const auto it = results[i].metrics.find(c.metric); it != results[i].metrics.end())
    cell.present = true, cell.stats = unit.factor == 1 ? it->second : scaled_stats(it->second, unit.factor, unit.unit);
  return cell;
}

/// Fills the table's row names and column headers and units; what each column shows, per column
/// (unused for parameter and value columns).
std::vector<Shown> add_headers(const spec::ReportTable& spec, const std::vector<PointResult>& results, Table& t) {
  std::vector<Shown> units;
  for (const auto& c : spec.columns) {
    units.push_back(c.metric.empty() ? Shown{} : shown(c, results));
    if (c.metric.empty()) {
      t.row_names.push_back(!c.label.empty() ? c.label : c.param.empty() ? c.value : c.param);
      continue;
    }
    t.columns.push_back(derived_header(c, units.back()));
    t.column_groups.push_back(c.group);
    t.column_units.push_back(units.back().unit);
  }
  return units;
}

/// One row per point of `results` (those the table selects from `all`).
Table columns_table(std::vector<PointResult> results, const spec::ReportTable& spec, const PointsView& all) {
  {  // the names of the selected points (a view of its own: `where` may leave out a parameter's values)
    const PointsView selected(results);
    check_columns(spec, selected);
    require_known_at(spec.at, spec.rows, selected.params, "row parameter");
  }
  sort_rows(results, spec.rows);
  // Baselines are looked up among all points, whatever `where` selects, once per table.
  const bool derives = std::any_of(spec.columns.begin(), spec.columns.end(),
                                   [](const auto& c) { return c.derived != spec::DerivedMetric::none; });
  const Bases bases = derives ? at_location(where_of(spec.baseline, spec.at), [&] { return baselines_of(results, all, spec.baseline); })
                              : Bases(results.size());
  Table t;
  t.name = spec.name;
  t.title = spec.title.empty() ? spec.name : spec.title;
  t.spread = spec.spread;
  t.latex = spec.latex;
  const std::vector<Shown> units = add_headers(spec, results, t);
  for (std::size_t i = 0; i < results.size(); ++i) {
    std::vector<std::string> keys;
    std::vector<Cell> cells;
    for (std::size_t k = 0; k < spec.columns.size(); ++k) {
      const spec::ReportColumn& c = spec.columns[k];
      if (!c.param.empty()) keys.push_back(find_param(*results[i].point, c.param)->value);
      else if (c.metric.empty()) keys.push_back(c.value);
      else cells.push_back(metric_cell(c, units[k], spec, results, bases, i));
    }
    t.row_values.push_back(std::move(keys));
    t.cells.push_back(std::move(cells));
  }
  return t;
}

}  // namespace

void require_known_at(const SourceLocation& at, const std::vector<std::string>& names, const std::vector<std::string>& known,
                      const char* what, const std::string& context) {
  try {
    require_known(names, known, what);
  } catch (const Error& e) {
    fail_at(at, context + e.what());
  }
}

std::vector<PointResult> select_points(const PointsView& points, const spec::ParamMatch& where, const SourceLocation& at) {
  std::vector<std::string> names;
  for (const auto& [k, v] : where) names.push_back(k);
  require_known_at(at, names, points.params, "parameter in \"where\"");
  std::vector<PointResult> out;
  for (const auto& r : points.results) {
    const bool match = std::all_of(where.begin(), where.end(), [&](const auto& kv) {
      const auto* p = find_param(*r.point, kv.first);
      return p && p->value == kv.second;
    });
    if (match) out.push_back(r);
  }
  return out;
}

namespace {

/// A pivot's parameter headers under `labels` (the table's `labels:`): its row names, the spanning `cols`
/// names, and the column headers made from them. A labelled name that is none of the table's parameters
/// is an error at the table.
void apply_labels(Table& t, const spec::ParamMatch& labels, const SourceLocation& at) {
  std::vector<std::string> named, known = t.row_names;
  for (const auto& [param, label] : labels) named.push_back(param);
  known.insert(known.end(), t.col_params.begin(), t.col_params.end());
  require_known_at(at, named, known, "parameter in \"labels\"");
  const auto label_of = [&](std::string& name) {
    for (const auto& [param, label] : labels)
      if (param == name) return void(name = label);
  };
  std::for_each(t.row_names.begin(), t.row_names.end(), label_of);
  std::for_each(t.col_params.begin(), t.col_params.end(), label_of);
  for (std::size_t j = 0; !t.col_params.empty() && j < t.columns.size() && j < t.col_values.size(); ++j)
    t.columns[j] = pivot_column_header(t.col_params, t.col_values[j]);
}

}  // namespace

std::vector<Table> build_declared(const PointsView& points, const spec::ReportTable& spec) {
  const std::vector<PointResult> selected = select_points(points, spec.where, spec.at);
  if (!spec.columns.empty()) {
    std::vector<Table> one;  // (push_back: a braced list would copy the table)
    one.push_back(columns_table(selected, spec, points));
    return one;
  }
  std::vector<PointResult> ordered = selected;  // rows grouped by the `rows` parameters, in their order
  sort_rows(ordered, spec.rows);
  auto tables = at_location(spec.at, [&] { return build_tables(ordered, TableSpec{spec.rows, spec.cols, spec.metrics}); });
  for (auto& t : tables) {
    apply_labels(t, spec.labels, spec.at);
    t.name = tables.size() == 1 ? spec.name : spec.name + "." + t.title;
    if (!spec.title.empty()) t.title = tables.size() == 1 ? spec.title : spec.title + ": " + t.title;
    t.spread = spec.spread;
    t.latex = spec.latex;
    // One label per metric: the declared label, then "." and the metric (as its file is named).
    if (tables.size() > 1 && !spec.latex.label.empty())
      t.latex.label = spec.latex.label + "." + safe_file_name(t.name.substr(spec.name.size() + 1));
    for (auto& row : t.cells)
      for (auto& cell : row) cell.digits = spec.digits;
  }
  return tables;
}

}  // namespace sweep::report
