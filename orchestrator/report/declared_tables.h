#pragma once
// Tables declared in a report specification (spec/report_spec.h, docs/reports.md): the points selected
// by `where`, laid out as a pivot (rows x cols per metric) or as one row per point with explicit
// columns, including derived metrics. Pure. Names the campaign lacks are Error(invalid_experiment) at
// the table's file:line:column.
#include <vector>

#include "report/table.h"
#include "spec/report_spec.h"
#include "util/error.h"

namespace sweep::report {

/// Runs `f`, rethrowing a usage error about names (unknown parameter, metric) as
/// Error(invalid_experiment) at the spec's location `at`.
template <typename F>
auto at_location(const SourceLocation& at, F&& f) {
  try {
    return f();
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::usage) throw;
    fail_at(at, e.what());
  }
}

/// require_known (report/table.h) with the error at `at`, `context` (e.g. `figure "f": `) before it.
void require_known_at(const SourceLocation& at, const std::vector<std::string>& names, const std::vector<std::string>& known,
                      const char* what, const std::string& context = "");

/// The results whose parameters equal every `where` value (canonical text), in order.
std::vector<PointResult> select_points(const PointsView& points, const spec::ParamMatch& where, const SourceLocation& at);

/// The tables of one declared table: one for the explicit-columns form, one per metric for a pivot.
std::vector<Table> build_declared(const PointsView& points, const spec::ReportTable& spec);

}  // namespace sweep::report
