#include "runner/workload_choice.h"

#include <fmt/core.h>

#include "util/error.h"

namespace sweep::runner {

std::string point_text(const matrix::Schema& schema, std::span<const Value> values) {
  return fmt::format("{} ({})", matrix::point_id(schema, values), matrix::describe_point(schema, values));
}

templating::Variables point_variables(const matrix::Schema& schema, std::span<const Value> values) {
  templating::Variables vars;
  for (std::size_t i = 0; i < schema.names.size(); ++i) vars[schema.names[i]] = values[i].text();
  return vars;
}

std::size_t choose_workload(const spec::Experiment& experiment, const matrix::Schema& schema,
                            std::span<const Value> values) {
  const auto& entries = experiment.workloads;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!entries[i].when) return i;
    const Value v = entries[i].when->eval(values);
    if (v.type() != ValueType::boolean)
      fail_at(entries[i].when->where(), fmt::format("\"when\" must be true or false, got {} {} at point {}",
                                                    type_name(v.type()), v.text(), point_text(schema, values)));
    if (v.as_bool()) return i;
  }
  fail_at(experiment.workloads_where,
          fmt::format("no \"workload\" entry takes the point {}: every \"when\" is false (add a last entry "
                      "without \"when\", or exclude the point)",
                      point_text(schema, values)));
}

}  // namespace sweep::runner
