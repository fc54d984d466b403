#pragma once
// What `sweep report` would refuse about a report specification whatever the runs measure, checked
// before anything runs (`sweep plan`) against the names the experiment's points have. Pure.
//
// Checked: every parameter a table or figure names (`where`, `rows`, `cols`, parameter columns,
// baselines' `match` and `ignore`, a figure's `series` and `facets`, a scaling figure's `x`); each
// column's `unit` (a unit at all, and one the metric's converts to when the experiment declares the
// metric with a unit); the model's `dtype` and `gradient_dtype` that name no parameter. Not checked:
// metric names (metric lines and built-in parsers may add any), the join (another campaign's points),
// and what depends on the values (which point is a baseline). Errors are Error(invalid_experiment) at
// the element's file:line:column, in the words `sweep report` uses.
#include <string>
#include <vector>

#include "spec/experiment.h"
#include "spec/report_spec.h"

namespace sweep::report {

/// Throws the first refusal of `spec` for points whose parameters and derived values are `parameters`,
/// with `experiment`'s declared metrics.
void check_report_spec(const spec::ReportSpec& spec, const std::vector<std::string>& parameters,
                       const spec::Experiment& experiment);

/// check_report_spec of `experiment`'s own `report:` section (none: nothing to check), and its style
/// files, read from the experiment's directory (report/figure_style.h): the one part that reads files.
void check_experiment_report(const spec::Experiment& experiment, const std::vector<std::string>& parameters);

}  // namespace sweep::report
