#pragma once
// Loading report specifications (docs/reports.md): the `report:` section of an experiment, or a separate
// report file. Errors are Error(invalid_experiment) with file:line:column and what was expected.
#include <string>
#include <vector>

#include "spec/experiment.h"
#include "spec/report_spec.h"

namespace sweep::spec {

/// Reads a report file: a map with `report:` and an optional `format: 1`; or an experiment file (a map
/// with `name:`), whose `report:` section is read as report_of_experiment reads a stored one.
/// Error(not_found) if missing.
ReportSpec load_report_file(const std::string& path);

/// The `report:` section of experiment `text` (as stored with a campaign); declared == false when it
/// has none. Only that section is read: the rest was validated when the campaign was created.
ReportSpec report_of_experiment(const std::string& text, const std::string& path);

/// The `thresholds:` of experiment `text` (as stored with a campaign; empty when it has none), for
/// `sweep compare` and `nightly`. Expressions come back unbound: bind them to a point's names.
std::vector<MetricThreshold> thresholds_of_experiment(const std::string& text, const std::string& path);

/// The `references:` of experiment `text` (as stored with a campaign; empty when it has none), for
/// `sweep check`. `where` expressions come back unbound.
std::vector<Reference> references_of_experiment(const std::string& text, const std::string& path);

}  // namespace sweep::spec
