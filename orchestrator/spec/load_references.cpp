// `references`: expected values of metrics per system, for acceptance tests of a cluster
// (docs/references.md). Read from the experiment, a stored experiment, and the site file.
#include <fmt/core.h>

#include <array>

#include "spec/load_sections.h"
#include "spec/yaml_read.h"

namespace sweep::spec {
namespace {

constexpr std::array<std::string_view, 7> kKeys{"system", "metric", "value", "lower", "upper", "unit", "where"};

double number_of(const Field& f, const Source& src, std::string_view expected, bool (*ok)(double)) {
  const Value v = scalar_value(f, src);
  if (!v.is_number() || !ok(v.as_number())) fail_expected(f, src, expected);
  return v.as_number();
}

}  // namespace

Reference read_reference(const Field& entry, const Source& src) {
  if (!entry.value.IsMap()) fail_expected(entry, src, "a map {system: ..., metric: ..., value: ..., lower: ..., upper: ...}");
  const std::vector<Field> fields = map_fields(entry, src);
  check_keys(fields, kKeys, src);
  Reference r;
  r.at = location(entry, src);
  const Field* metric = find_field(fields, "metric");
  const Field* value = find_field(fields, "value");
  if (!metric || !value) fail_at(r.at, "a reference needs \"metric\" and \"value\" (and \"lower\" or \"upper\")");
  r.metric = scalar_text(*metric, src, "a metric name");
  if (!is_metric_name(r.metric)) fail_expected(*metric, src, "a metric name ([A-Za-z_][A-Za-z0-9_.]*)");
  r.value = number_of(*value, src, "a number other than 0 (the bounds are relative to it)", [](double x) { return x != 0; });
  if (const Field* f = find_field(fields, "lower"))
    r.lower = number_of(*f, src, "a relative bound from -1 to 0 (-0.05: at most 5% below)", [](double x) { return x >= -1 && x <= 0; });
  if (const Field* f = find_field(fields, "upper"))
    r.upper = number_of(*f, src, "a relative bound of 0 or more (0.10: at most 10% above)", [](double x) { return x >= 0; });
  if (!r.lower && !r.upper) fail_at(r.at, fmt::format("the reference of \"{}\" needs \"lower\" or \"upper\" (or both)", r.metric));
  if (const Field* f = find_field(fields, "system")) r.system = scalar_text(*f, src, "a system name, or \"*\" for any");
  if (const Field* f = find_field(fields, "unit")) r.unit = scalar_text(*f, src, "a unit");
  if (const Field* f = find_field(fields, "where"))
    r.where = Expr::parse(scalar_text(*f, src, "an expression over the point's parameters"), content_location(*f, src));
  return r;
}

void read_references(const Field& f, const Source& src, LoadState& st) {
  for (const Field& entry : list_items(f, src)) {
    Reference r = read_reference(entry, src);
    if (r.where) {
      Expr check = *r.where;
      check.bind(st.exp.parameter_names());  // unknown names are errors at their place
    }
    st.exp.references.push_back(std::move(r));
  }
}

}  // namespace sweep::spec
