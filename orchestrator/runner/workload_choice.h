#pragma once
// Which workload entry runs a point (the first whose `when` holds), and how a point reads in messages
// and in templates. Shared by runner::CampaignPlan and the layout check of `sweep plan`. Pure.
#include <cstddef>
#include <span>
#include <string>

#include "matrix/expand.h"
#include "spec/experiment.h"
#include "templating/render.h"
#include "util/value.h"

namespace sweep::runner {

/// "<point id> (name=value, ...)" over the point's parameters, for messages.
std::string point_text(const matrix::Schema& schema, std::span<const Value> values);

/// The point's parameters and derived values by name, as templates see them.
templating::Variables point_variables(const matrix::Schema& schema, std::span<const Value> values);

/// The index in `experiment.workloads` of the first entry whose `when` holds at the point (schema
/// order `values`). Error(invalid_experiment) at the `workload` list when none does, or at a `when`
/// that is not true or false.
std::size_t choose_workload(const spec::Experiment& experiment, const matrix::Schema& schema,
                            std::span<const Value> values);

}  // namespace sweep::runner
