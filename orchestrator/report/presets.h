#pragma once
// The default tables: the shapes of the source studies' tables (docs/reports.md#default-tables), for the
// metrics of the bundled workloads. A preset applies when the campaign has its metrics; columns for
// parameters the campaign lacks are left out, and parameters that vary but have no column are added
// so that no two rows look alike. Pure.
#include <vector>

#include "report/campaign_data.h"
#include "spec/report_spec.h"

namespace sweep::report {

std::vector<spec::ReportTable> default_tables(const std::vector<PointResult>& results);

}  // namespace sweep::report
