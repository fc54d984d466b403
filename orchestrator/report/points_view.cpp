#include "report/points_view.h"

#include <fmt/core.h>

#include <algorithm>
#include <set>
#include <unordered_set>

#include "util/error.h"
#include "util/strings.h"

namespace sweep::report {

Value param_value(const store::ParamRecord& p) { return value_from_text(p.value, type_from_name(p.type)); }

std::optional<double> param_number(const store::ParamRecord& p) {
  const Value v = param_value(p);
  if (!v.is_number()) return std::nullopt;
  return v.as_number();
}

const store::ParamRecord* find_param(const store::PointRecord& p, const std::string& name) {
  for (const auto& pr : p.params)
    if (pr.name == name) return &pr;
  return nullptr;
}

std::string param_text(const store::PointRecord& p, const std::vector<std::string>& names, std::string_view sep) {
  std::string out;
  for (const auto& name : names)
    if (const auto* v = find_param(p, name)) {
      if (!out.empty()) out += sep;
      out += name + "=" + v->value;
    }
  return out;
}

std::string point_label(const store::PointRecord& p) {
  std::string out;
  for (const auto& param : p.params) {
    if (param.derived) continue;
    out += (out.empty() ? "" : " ") + param.name + "=" + param.value;
  }
  return out.empty() ? p.point_id : out;
}

std::string param_label(const PointResult& r, const std::vector<std::string>& params) {
  return param_text(*r.point, params, ", ");
}

PointValues point_values(const store::PointRecord& p) {
  PointValues out;
  for (const auto& param : p.params) {
    out.names.push_back(param.name);
    out.values.push_back(param_value(param));
  }
  return out;
}

std::optional<double> number_at(const PointResult& r, const std::string& name) {
  if (const auto* p = find_param(*r.point, name))
    if (const auto n = param_number(*p)) return n;
  if (const auto it = r.metrics.find(name); it != r.metrics.end() && it->second.summary.n > 0) return it->second.summary.mean;
  return std::nullopt;
}

void require_known(const std::vector<std::string>& names, const std::vector<std::string>& known, const char* what) {
  // A set, not a scan per name: a database may hold a million metric names (docs/reliability.md).
  const std::unordered_set<std::string_view> lookup(known.begin(), known.end());
  for (const auto& n : names)
    if (!lookup.count(n))
      throw Error(ErrorKind::usage, fmt::format("unknown {} \"{}\"{} (available: {})", what, n, did_you_mean(n, known),
                                                join(known, ", ")));
}

namespace {

std::vector<std::int64_t> indices_of(const MetricStats& m) {
  std::vector<std::int64_t> out;
  for (const auto& [index, s] : m.by_index) out.push_back(index);
  return out;
}

/// Parameter names of the points in schema order, and those (non-derived) that take more than one value.
void add_params(const std::vector<PointResult>& results, PointsView& view) {
  if (results.empty()) return;
  const auto& first = results.front().point->params;
  for (const auto& pr : first) {
    view.params.push_back(pr.name);
    if (pr.derived) continue;
    std::set<std::string> values;
    for (const auto& r : results)
      if (const auto* v = find_param(*r.point, pr.name)) values.insert(v->value);
    if (values.size() > 1) view.varying.push_back(pr.name);
  }
  if (view.varying.empty())
    for (const auto& pr : first)
      if (!pr.derived) view.varying.push_back(pr.name);
}

}  // namespace

std::vector<std::string> size_indexed_metrics(const std::vector<PointResult>& results) {
  std::set<std::string> out;
  for (const auto& r : results) {
    const auto size = r.metrics.find(std::string(kSizeMetric));
    if (size == r.metrics.end() || size->second.by_index.size() < 2) continue;
    const auto indices = indices_of(size->second);
    for (const auto& [name, m] : r.metrics)
      if (indices_of(m) == indices) out.insert(name);
  }
  return {out.begin(), out.end()};
}

PointsView::PointsView(const std::vector<PointResult>& points)
    : results(points), metrics(metric_names(points)), size_indexed(size_indexed_metrics(points)) {
  add_params(points, *this);
}

bool PointsView::has_param(const std::string& name) const {
  return std::find(params.begin(), params.end(), name) != params.end();
}

bool PointsView::has_metric(const std::string& name) const {
  return std::binary_search(metrics.begin(), metrics.end(), name);
}

}  // namespace sweep::report
