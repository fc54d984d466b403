#pragma once
// Private to spec/load_report*.cpp: the reader of a report's `model:` section (docs/reports.md#predicted-values).
#include "spec/report_spec.h"
#include "spec/yaml_read.h"

namespace sweep::spec {

/// `model:` of a report or a join: `baseline` and `time` required, `link` or `bandwidth` required, each
/// input a positive number or a parameter or metric name. Throws at the field that is wrong.
ReportModel read_model(const Field& item, const Source& src);

}  // namespace sweep::spec
