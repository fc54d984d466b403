#include "report/report_check.h"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>

#include "model/dtype.h"
#include "report/declared_tables.h"
#include "report/figure_style.h"
#include "report/units.h"
#include "spec/load_report.h"

namespace sweep::report {
namespace {

using Names = std::vector<std::string>;

Names keys(const spec::ParamMatch& match) {
  Names out;
  for (const auto& [name, value] : match) out.push_back(name);
  return out;
}

void check_baseline(const spec::Baseline& b, const SourceLocation& owner, const Names& params, const std::string& context) {
  require_known_at(b.at.file.empty() ? owner : b.at, keys(b.match), params, "baseline parameter", context);
  require_known_at(b.at.file.empty() ? owner : b.at, b.ignore, params, "parameter in the baseline's \"ignore\"", context);
}

/// The unit the experiment declares for `metric`; "" when it declares none (or does not know it).
std::string declared_unit(const spec::Experiment& e, const std::string& metric) {
  const auto it = std::find_if(e.metrics.begin(), e.metrics.end(), [&](const spec::MetricRule& m) { return m.name == metric; });
  return it == e.metrics.end() ? "" : it->unit;
}

void check_column_unit(const spec::ReportColumn& c, const spec::Experiment& e) {
  if (c.unit.empty() || c.derived != spec::DerivedMetric::none) return;
  const std::string from = declared_unit(e, c.metric);
  at_location(c.unit_at, [&] { return conversion_factor(from.empty() ? c.unit : from, c.unit); });
}

void check_table(const spec::ReportTable& t, const Names& params, const spec::Experiment& e) {
  require_known_at(t.at, keys(t.where), params, "parameter in \"where\"");
  require_known_at(t.at, t.rows, params, "row parameter");
  require_known_at(t.at, t.cols, params, "column parameter");
  for (const spec::ReportColumn& c : t.columns) {
    if (!c.param.empty()) require_known_at(c.at, {c.param}, params, "parameter");
    if (!c.metric.empty()) check_column_unit(c, e);
  }
  const bool derives = std::any_of(t.columns.begin(), t.columns.end(),
                                   [](const auto& c) { return c.derived != spec::DerivedMetric::none; });
  if (derives) check_baseline(t.baseline, t.at, params, "");
}

void check_figure(const spec::ReportFigure& g, const Names& params) {
  const std::string context = fmt::format("figure \"{}\": ", g.name);
  require_known_at(g.at, keys(g.where), params, "parameter in \"where\"", context);
  require_known_at(g.at, g.series, params, "series parameter", context);
  if (!g.facets.empty()) require_known_at(g.at, {g.facets}, params, "facets parameter", context);
  if (g.kind != spec::FigureKind::scaling) return;
  require_known_at(g.at, {g.x}, params, "x parameter (a scaling figure needs a parameter as x)", context);
  check_baseline(g.baseline, g.at, params, context);
}

void check_dtype(const spec::ReportModel& m, const std::string& dtype, const Names& params) {
  if (dtype.empty() || model::dtype_bytes(dtype) || std::find(params.begin(), params.end(), dtype) != params.end()) return;
  fail_at(m.at, fmt::format("the model's dtype \"{}\" is not {} (nor a parameter holding one)", dtype, model::kDtypeNames));
}

}  // namespace

void check_report_spec(const spec::ReportSpec& spec, const std::vector<std::string>& parameters,
                       const spec::Experiment& experiment) {
  if (!spec.declared) return;
  for (const spec::ReportTable& t : spec.tables) check_table(t, parameters, experiment);
  for (const spec::ReportFigure& g : spec.figures) check_figure(g, parameters);
  if (!spec.model.declared) return;
  check_baseline(spec.model.baseline, spec.model.at, parameters, "model: ");
  check_dtype(spec.model, spec.model.dtype, parameters);
  check_dtype(spec.model, spec.model.gradient_dtype, parameters);
}

void check_experiment_report(const spec::Experiment& experiment, const std::vector<std::string>& parameters) {
  const spec::ReportSpec spec = spec::report_of_experiment(experiment.text, experiment.path);
  check_report_spec(spec, parameters, experiment);
  if (spec.declared)
    with_styles(spec, std::filesystem::absolute(experiment.path).parent_path().string());  // throws at a bad style file
}

}  // namespace sweep::report
