#pragma once
// Private to spec/load*.cpp: readers of a report's parameter matches (`where`) and baselines
// (docs/reports.md#baselines).
#include "spec/report_spec.h"
#include "spec/yaml_read.h"

namespace sweep::spec {

/// A map of parameter values, e.g. {model: gpt2, nodes: 1}, as canonical text.
ParamMatch param_match_at(const Field& f, const Source& src);

/// `baseline:` in either form: a map of parameter values ({nodes: 1, gpus_per_node: 1}), or
/// {match: {...}, ignore: [names]} when any value is a map or a list. Throws at the field for an empty
/// match, an unknown key of the second form, or a name both matched and ignored.
Baseline baseline_at(const Field& f, const Source& src);

}  // namespace sweep::spec
